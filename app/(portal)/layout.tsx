import Link from "next/link";
import { requireActor } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/access/roles";
import { navGroups, palettePages } from "@/components/shell/nav-items";
import { NavGroups } from "@/components/shell/nav-links";
import { NavSheet } from "@/components/shell/nav-sheet";
import { NavAccountMenu } from "@/components/shell/nav-account-menu";
import { ReauthProvider } from "@/components/auth/reauth-provider";
import { CommandPalette } from "@/components/shell/command-palette";
import { KeyboardShortcuts } from "@/components/shell/keyboard-shortcuts";

/**
 * The frame of every signed-in page. One <header> holds the brand, the team, search and the
 * account menu, each rendered once: from 1,024 px it is a sidebar with the navigation's groups,
 * below that a top bar whose "Menu" opens the same groups as a sheet (components/shell/nav-sheet.tsx).
 */
export default async function PortalLayout({ children, panel }: { children: React.ReactNode; panel: React.ReactNode }) {
  const actor = await requireActor();
  const groups = navGroups(actor);

  return (
    <ReauthProvider twoFactor={actor.twoFactorEnabled}>
      <div className="min-h-screen lg:pl-60">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 lg:fixed lg:inset-y-0 lg:left-0 lg:h-auto lg:w-60 lg:flex-col lg:items-stretch lg:gap-3 lg:border-r lg:border-b-0 lg:bg-white lg:px-3 lg:py-4">
          <NavSheet groups={groups} teamName={actor.teamName} />
          <div className="flex min-w-0 items-center gap-2 lg:flex-col lg:items-stretch lg:gap-1">
            <Link href="/" prefetch={false} className="flex shrink-0 items-center gap-2 font-semibold lg:px-2.5">
              <span aria-hidden className="grid size-7 place-items-center rounded-md bg-brand-600 text-sm text-white">
                E
              </span>
              <span className="max-sm:sr-only">EMS Portal</span>
            </Link>
            <span
              className="min-w-0 truncate rounded-md bg-slate-100 px-2 py-1 text-xs font-medium text-slate-700 max-sm:hidden lg:bg-transparent lg:px-2.5 lg:py-0 lg:text-slate-600"
              data-testid="team-name"
              title="Your team"
            >
              {actor.teamName}
            </span>
          </div>
          <div className="ml-auto flex shrink-0 items-center lg:ml-0 lg:px-0.5 lg:[&>button]:w-full">
            <CommandPalette pages={palettePages(groups)} />
          </div>
          <nav aria-label="Main" className="hidden min-h-0 overflow-y-auto lg:block lg:flex-1">
            <NavGroups groups={groups} idPrefix="sidebar" />
          </nav>
          <div className="shrink-0 lg:border-t lg:border-slate-200 lg:pt-3">
            <NavAccountMenu name={actor.name} email={actor.email} roleLine={`${ROLE_LABELS[actor.role]} of ${actor.teamName}`} />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-7xl min-w-0 px-4 py-6 sm:px-6 lg:px-8">
          {children}
        </main>
        {/* A record opened from a list, over it (app/(portal)/@panel). */}
        {panel}
      </div>
      <KeyboardShortcuts />
    </ReauthProvider>
  );
}
