import { redirect } from "next/navigation";

/**
 * Settings opens on its first section. An old link to a section of the one long page it was
 * (/settings#history-heading) keeps its fragment through the redirect, and the sections' layout
 * sends it on (components/settings/legacy-anchor.tsx).
 */
export default function SettingsPage(): never {
  redirect("/settings/credentials");
}
