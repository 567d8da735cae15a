import type { HealthCounts } from "@/lib/access/actor";
import { canManageTeam, type TeamRole } from "@/lib/access/roles";
import { plural, pluralWord } from "@/lib/text/plural";

/**
 * The portal's one list of places: the sidebar, the phone's menu sheet and the command palette's
 * pages are all drawn from it (components/shell/nav-links.tsx, nav-sheet.tsx; the layout hands
 * `palettePages` to components/shell/command-palette.tsx).
 */

export interface NavItem {
  href: string;
  label: string;
  /** The paths that mark this item as the current page (each with what lies under it); `href` alone by default. */
  match?: string[];
  /** A count beside the label (the Health page's errors), with its words for screen readers. */
  badge?: { text: string; title: string; tone: "error" | "warning" | "ok" };
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** Settings' own sections (app/(portal)/(settings)/layout.tsx draws them beside each page). */
export const SETTINGS_SECTIONS: readonly NavItem[] = [
  { href: "/settings/credentials", label: "API credentials" },
  { href: "/settings/budget", label: "API budget" },
  { href: "/settings/tracking", label: "Change tracking" },
  { href: "/settings/alerts", label: "Alerts" },
  { href: "/settings/checks", label: "Health checks" },
  { href: "/team", label: "Team" },
  { href: "/account", label: "Security", match: ["/account"] },
  { href: "/views", label: "Saved views" },
];

/**
 * The last check's unmuted errors, the number the Health page shows first (warnings are in the
 * title); nothing before the first check.
 */
export function healthBadge(counts: HealthCounts | null | undefined): NavItem["badge"] {
  if (!counts) return undefined;
  const title = `${plural(counts.errors, "error")} (and ${plural(counts.warnings, "warning")}) at the last check`;
  return { text: String(counts.errors), title, tone: counts.errors > 0 ? "error" : "ok" };
}

/** Plans sent for review by someone else that this owner or admin may approve; nothing when none. */
export function reviewBadge(plansToReview: number | undefined): NavItem["badge"] {
  if (!plansToReview) return undefined;
  return { text: String(plansToReview), title: `${plansToReview} ${pluralWord(plansToReview, "plan waits", "plans wait")} for your review`, tone: "warning" };
}

/** The person's unread inbox items (lib/inbox); nothing when none. */
export function inboxBadge(unread: number | undefined): NavItem["badge"] {
  if (!unread) return undefined;
  return { text: unread > 99 ? "99+" : String(unread), title: `${plural(unread, "unread item")} in your inbox`, tone: "warning" };
}

/** The navigation of a person with this role, these Health counts, plans to review and unread inbox items. */
export function navGroups({
  role,
  healthCounts,
  plansToReview,
  inboxUnread,
}: {
  role: TeamRole;
  healthCounts?: HealthCounts | null;
  plansToReview?: number;
  inboxUnread?: number;
}): NavGroup[] {
  return [
    {
      label: "Work",
      items: [
        { href: "/inbox", label: "Inbox", badge: inboxBadge(inboxUnread) },
        { href: "/webhooks", label: "Webhooks" },
        { href: "/webhook-groups", label: "Webhook groups" },
        { href: "/events", label: "Events" },
        plansToReview ? { href: "/plans?status=review", label: "Plans", match: ["/plans"], badge: reviewBadge(plansToReview) } : { href: "/plans", label: "Plans" },
      ],
    },
    {
      label: "Oversight",
      items: [
        { href: "/coverage", label: "Coverage" },
        { href: "/health", label: "Health", badge: healthBadge(healthCounts) },
        { href: "/changes", label: "Changes" },
        ...(canManageTeam(role) ? [{ href: "/audit", label: "Audit log" }] : []),
      ],
    },
    {
      label: "Settings",
      items: [
        { href: "/settings/credentials", label: "Settings", match: ["/settings", "/account"] },
        { href: "/team", label: "Team" },
        { href: "/views", label: "Saved views" },
      ],
    },
  ];
}

/** What the command palette lists under "Pages": every place of the navigation and every section of Settings, once each. */
export function palettePages(groups: NavGroup[]): { href: string; label: string }[] {
  const pages = new Map<string, string>();
  for (const item of groups.flatMap((group) => group.items)) pages.set(item.href, item.label);
  // Named without "Settings", which names the first section's entry.
  for (const section of SETTINGS_SECTIONS)
    if (!pages.has(section.href)) pages.set(section.href, section.href === "/account" ? "Security: two-factor and password" : section.label);
  pages.set("/account/sessions", "Sessions: browsers signed in");
  return [...pages].map(([href, label]) => ({ href, label }));
}

/** Whether `pathname` is `item`'s page or lies under it. */
export function isCurrent(item: NavItem, pathname: string): boolean {
  return (item.match ?? [item.href]).some((path) => pathname === path || pathname.startsWith(`${path}/`));
}
