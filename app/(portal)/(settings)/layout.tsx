import { SETTINGS_SECTIONS } from "@/components/shell/nav-items";
import { SectionLinks } from "@/components/shell/nav-links";
import { LegacySettingsAnchor } from "@/components/settings/legacy-anchor";

/**
 * Settings' sections, each a page of its own (/settings/credentials, budget, tracking, alerts, and
 * /team, /account, /views at their old addresses): the sections' nav beside the page from 1,024 px,
 * a scrolling row above it below that. Each page checks who is asking itself.
 */
export default function SettingsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:gap-8">
      <nav aria-label="Settings" className="mb-6 min-w-0 lg:sticky lg:top-6 lg:mb-0 lg:self-start" data-testid="settings-nav">
        <p className="mb-2 px-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500 max-lg:sr-only">Settings</p>
        <SectionLinks items={SETTINGS_SECTIONS} />
      </nav>
      <div className="min-w-0">{children}</div>
      <LegacySettingsAnchor />
    </div>
  );
}
