import { pageNumberParam, pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

/**
 * The Changes feed's filters, all in the URL (a link reproduces the feed). One parser that falls
 * back to "no filter" for a value it cannot use, and says so; never throws.
 */
export const CHANGE_KINDS = ["added", "removed", "changed"] as const;
export type ChangeKindFilter = (typeof CHANGE_KINDS)[number];
export const RECORD_KIND_FILTERS = ["group", "webhook", "event"] as const;
export const FEED_PAGE_SIZE = 50;

export interface FeedFilters {
  group: number | null;
  webhook: number | null;
  event: number | null;
  kind: (typeof RECORD_KIND_FILTERS)[number] | null;
  change: ChangeKindFilter | null;
  /** The field changed ("url", "headers", …). */
  field: string | null;
  /** Who made the change in the EMS (updated_by contains). */
  person: string;
  /** Seen on or after this UTC day / on or before it ("YYYY-MM-DD"). */
  from: string | null;
  to: string | null;
  page: number;
  notices: string[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseFeedParams(input: URLSearchParams | PageSearchParams): FeedFilters {
  const params = pageSearchParams(input);
  const notices: string[] = [];
  const text = (name: string) => params.get(name)?.trim() ?? "";
  const id = (name: string, label: string): number | null => {
    const raw = text(name);
    if (!raw) return null;
    if (/^\d{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
    notices.push(`“${raw.slice(0, 40)}” is not a ${label} id; that filter is off.`);
    return null;
  };
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | null => {
    const raw = text(name);
    if (!raw) return null;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    notices.push(`“${raw.slice(0, 40)}” is not a choice for ${name}; that filter is off.`);
    return null;
  };
  const day = (name: string, label: string): string | null => {
    const raw = text(name);
    if (!raw) return null;
    if (DAY.test(raw) && !Number.isNaN(new Date(`${raw}T00:00:00Z`).getTime()) && new Date(`${raw}T00:00:00Z`).toISOString().startsWith(raw)) return raw;
    notices.push(`“${raw.slice(0, 40)}” is not a date (YYYY-MM-DD) for “${label}”; that filter is off.`);
    return null;
  };
  const field = text("field");
  const fieldOk = field === "" || /^[a-z_]{1,40}$/.test(field);
  if (!fieldOk) notices.push(`“${field.slice(0, 40)}” is not a field name; that filter is off.`);
  const person = text("person").slice(0, 200);
  const page = pageNumberParam(params);
  return {
    group: id("group", "group"),
    webhook: id("webhook", "webhook"),
    event: id("event", "event"),
    kind: pick("kind", RECORD_KIND_FILTERS),
    change: pick("change", CHANGE_KINDS),
    field: fieldOk && field ? field : null,
    person,
    from: day("from", "from"),
    to: day("to", "to"),
    page,
    notices,
  };
}

/** The feed's URL with some filters changed (empty ones left out). */
export function feedHref(filters: FeedFilters, change: Partial<Omit<FeedFilters, "notices">> = {}): string {
  const next = { ...filters, ...change };
  const params = new URLSearchParams();
  for (const name of ["group", "webhook", "event", "kind", "change", "field", "person", "from", "to"] as const) {
    const value = next[name];
    if (value !== null && value !== "") params.set(name, String(value));
  }
  if (next.page > 1) params.set("page", String(next.page));
  const query = params.toString();
  return query ? `/changes?${query}` : "/changes";
}
