import Link from "next/link";
import { activeFilters, healthHref, type HealthFilters, type HealthFilterName, type HealthPage } from "@/lib/health/list";
import { HEALTH_RULES, ruleById } from "@/lib/health/rules";
import { SEVERITY_ORDER, type Severity } from "@/lib/health/types";
import { formatCount } from "@/lib/listing/format";
import { buttonClasses } from "@/components/ui/button";
import { FilterChips } from "@/components/ui/filter-chips";
import { plural } from "@/lib/text/plural";

const SEVERITY_WORDS: Record<Severity, [string, string]> = { error: ["error", "errors"], warning: ["warning", "warnings"], notice: ["notice", "notices"] };
const SEVERITY_TONES: Record<Severity, string> = {
  error: "text-red-800 ring-red-200 aria-[current=true]:bg-red-100",
  warning: "text-amber-800 ring-amber-200 aria-[current=true]:bg-amber-100",
  notice: "text-sky-800 ring-sky-200 aria-[current=true]:bg-sky-100",
};
const MUTED_WORDS = { hide: "Hide muted", only: "Only muted", all: "Shown and muted" } as const;

const field = "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** Severity as toggling chips, with what the other filters keep of each. */
export function SeverityChips({ filters, counts }: { filters: HealthFilters; counts: HealthPage["bySeverity"] }) {
  return (
    <nav aria-label="Severity" className="flex flex-wrap gap-1.5 text-sm" data-testid="health-severity-chips">
      {SEVERITY_ORDER.map((severity) => {
        const current = filters.severity === severity;
        const [one, many] = SEVERITY_WORDS[severity];
        return (
          <Link
            key={severity}
            href={healthHref(filters, { severity: current ? null : severity })}
            prefetch={false}
            aria-current={current ? "true" : undefined}
            className={`rounded-full px-2.5 py-0.5 font-medium ring-1 ring-inset hover:bg-slate-50 ${SEVERITY_TONES[severity]}`}
          >
            {plural(counts[severity], one, many)}
          </Link>
        );
      })}
    </nav>
  );
}

function chipLabel(name: HealthFilterName, filters: HealthFilters): string {
  switch (name) {
    case "q":
      return `“${filters.q}”`;
    case "severity":
      return `Severity: ${filters.severity}`;
    case "rule":
      return `Check: ${ruleById(filters.rule ?? "")?.title ?? filters.rule}`;
    case "group":
      return `Group ${filters.group}`;
    case "event":
      return `Event ${filters.event}`;
    case "host":
      return `Host: ${filters.host}`;
    case "muted":
      return MUTED_WORDS[filters.muted];
  }
}

const CLEARED: Record<HealthFilterName, Partial<HealthFilters>> = {
  q: { q: "" },
  severity: { severity: null },
  rule: { rule: null },
  group: { group: null },
  event: { event: null },
  host: { host: "" },
  muted: { muted: "hide" },
};

/** The filters in force, as chips to remove one by one. */
export function HealthFilterChips({ filters }: { filters: HealthFilters }) {
  const chips = activeFilters(filters).map((name) => ({ label: chipLabel(name, filters), removeHref: healthHref(filters, CLEARED[name]) }));
  return <FilterChips chips={chips} clearHref="/health" testId="health-filter-chips" />;
}

/**
 * Every filter as a GET form: works without JavaScript, lands in the URL, and a shared link shows
 * the same list. The check list counts what the other filters keep.
 */
export function HealthFilterForm({ filters, byRule }: { filters: HealthFilters; byRule: ReadonlyMap<string, number> }) {
  return (
    <form method="get" action="/health" role="search" aria-label="Filter the findings" className="space-y-2 text-sm" data-testid="health-filters">
      <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1.6fr)_auto]">
        <label className="col-span-2 min-w-0 sm:col-span-1">
          <span className="text-xs font-medium text-slate-600">Search</span>
          <input type="search" name="q" defaultValue={filters.q} maxLength={200} placeholder="Words in the finding" className={field} />
        </label>
        <label className="min-w-0">
          <span className="text-xs font-medium text-slate-600">Severity</span>
          <select name="severity" defaultValue={filters.severity ?? ""} className={field}>
            <option value="">Any</option>
            {SEVERITY_ORDER.map((severity) => (
              <option key={severity} value={severity}>
                {SEVERITY_WORDS[severity][1]}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0">
          <span className="text-xs font-medium text-slate-600">Check</span>
          <select name="rule" defaultValue={filters.rule ?? ""} className={field}>
            <option value="">Any</option>
            {HEALTH_RULES.map((rule) => (
              <option key={rule.id} value={rule.id}>
                {rule.title} ({formatCount(byRule.get(rule.id) ?? 0)})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClasses("secondary", { size: "sm", className: "col-span-2 sm:col-span-1" })}>
          Filter
        </button>
      </div>
      {/* The rarer filters open on demand; one in force keeps them open. */}
      <details open={filters.group !== null || filters.event !== null || filters.host !== "" || filters.muted !== "hide"} data-testid="health-more-filters">
        <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Group, event, host, muted</summary>
        <div className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-4">
          <label className="min-w-0">
            <span className="text-xs font-medium text-slate-600">Group id</span>
            <input name="group" inputMode="numeric" defaultValue={filters.group ?? ""} maxLength={16} className={field} />
          </label>
          <label className="min-w-0">
            <span className="text-xs font-medium text-slate-600">Event id</span>
            <input name="event" inputMode="numeric" defaultValue={filters.event ?? ""} maxLength={16} className={field} />
          </label>
          <label className="min-w-0">
            <span className="text-xs font-medium text-slate-600">Host</span>
            <input name="host" defaultValue={filters.host} maxLength={200} placeholder="hooks.example.com" className={field} />
          </label>
          <label className="min-w-0">
            <span className="text-xs font-medium text-slate-600">Muted</span>
            <select name="muted" defaultValue={filters.muted} className={field}>
              {Object.entries(MUTED_WORDS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </details>
    </form>
  );
}
