import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { type HealthCounts } from "@/lib/access/actor";
import { ROLE_LABELS, canManageTeam } from "@/lib/access/roles";
import { NavLinks, type NavItem } from "@/components/shell/nav-links";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { ReauthProvider } from "@/components/auth/reauth-provider";
import { CommandPalette } from "@/components/shell/command-palette";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";

/**
 * The last check's unmuted errors, the number the Health page shows first (warnings and notices
 * are in the title); nothing before the first check.
 */
function healthBadge(counts: HealthCounts | null | undefined): NavItem["badge"] {
  if (!counts) return undefined;
  const title = `${counts.errors} ${counts.errors === 1 ? "error" : "errors"} (and ${counts.warnings} ${counts.warnings === 1 ? "warning" : "warnings"}) at the last check`;
  return { text: String(counts.errors), title, tone: counts.errors > 0 ? "error" : "ok" };
}

export default async function PortalLayout({ children, panel }: { children: React.ReactNode; panel: React.ReactNode }) {
  const actor = await requireActor();
  const items: NavItem[] = [
    { href: "/webhooks", label: "Webhooks" },
    { href: "/webhook-groups", label: "Webhook groups" },
    { href: "/events", label: "Events" },
    { href: "/coverage", label: "Coverage" },
    { href: "/health", label: "Health", badge: healthBadge(actor.healthCounts) },
    { href: "/changes", label: "Changes" },
    { href: "/views", label: "Views" },
    { href: "/settings", label: "Settings" },
    { href: "/team", label: "Team" },
    ...(canManageTeam(actor.role) ? [{ href: "/audit", label: "Audit log" }] : []),
  ];

  return (
    <ReauthProvider twoFactor={actor.twoFactorEnabled}>
      <div className="flex min-h-screen flex-col">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6">
            <Link href="/webhook-groups" prefetch={false} className="flex shrink-0 items-center gap-2 font-semibold">
              <span aria-hidden className="grid size-7 place-items-center rounded-md bg-brand-600 text-sm text-white">
                E
              </span>
              <span className="max-sm:sr-only">EMS Portal</span>
            </Link>
            {/* Beside the full row of sections (xl) there is room for a few letters of it only: hidden
              there until 2xl; the account menu says it too. */}
            <span className="truncate rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700 xl:max-2xl:hidden" data-testid="team-name" title="Your team">
              {actor.teamName}
            </span>
            <nav aria-label="Main" className="ml-1 hidden xl:block">
              <NavLinks items={items} orientation="row" />
            </nav>
            <div className="ml-auto flex items-center gap-2">
              <CommandPalette pages={[...items.map(({ href, label }) => ({ href, label })), { href: "/account", label: "Account and sessions" }]} />
              <details className="group relative">
                <summary
                  className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
                  aria-label={`Account menu for ${actor.name}`}
                >
                  <span aria-hidden className="grid size-7 place-items-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700">
                    {actor.name.slice(0, 1).toUpperCase()}
                  </span>
                  <span className="hidden max-w-40 truncate sm:inline" data-testid="user-name">
                    {actor.name}
                  </span>
                </summary>
                <div className="absolute right-0 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-2 text-sm shadow-lg">
                  <p className="px-2 py-1 text-slate-500">
                    {actor.email}
                    <br />
                    {ROLE_LABELS[actor.role]} of {actor.teamName}
                  </p>
                  <Link href="/account" className="block rounded px-2 py-1.5 hover:bg-slate-100">
                    Account and sessions
                  </Link>
                  <SignOutButton className="block w-full rounded px-2 py-1.5 text-left hover:bg-slate-100" />
                </div>
              </details>
              <details className="relative xl:hidden">
                <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-sm [&::-webkit-details-marker]:hidden">Menu</summary>
                <nav aria-label="Main menu" className="absolute right-0 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
                  <NavLinks items={items} orientation="column" />
                </nav>
              </details>
            </div>
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
          {children}
        </main>
        {/* A record opened from a list, over it (app/(portal)/@panel). */}
        {panel}
      </div>
      <KeyboardShortcuts />
    </ReauthProvider>
  );
}
