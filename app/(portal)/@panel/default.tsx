/** No side panel: the slot is empty on every page that does not open one. */
export default function NoPanel() {
  return null;
}
