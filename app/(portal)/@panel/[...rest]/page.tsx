/**
 * Any other page closes the side panel: without this, a client navigation away from a panel would
 * keep the slot's last state (Next.js keeps a parallel route's content until a route of it matches).
 */
export default function ClosedPanel() {
  return null;
}
