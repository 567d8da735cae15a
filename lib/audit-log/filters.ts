/**
 * The audit log's filters live in its URL: `person=<user id>&action=<action or group>&from=YYYY-MM-DD
 * &to=YYYY-MM-DD&page=N`. One zod schema per parameter; a bad value never fails the page: it is
 * ignored and a notice says so. Dates are whole UTC days, both ends included.
 *
 * Whether the person belongs to the team is not known here: the data function checks it against
 * the team's own people (lib/audit-log/entries.ts) and ignores, with a notice, one that does not.
 */
import { z } from "zod";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";
import { actionFilterLabel } from "./describe";

export interface AuditFilters {
  person: string | null;
  /** An action ("team.role_changed") or a group of them ("team"). */
  action: string | null;
  /** First included UTC day, YYYY-MM-DD. */
  from: string | null;
  /** Last included UTC day, YYYY-MM-DD. */
  to: string | null;
  page: number;
}

export interface ParsedAuditFilters {
  filters: AuditFilters;
  notices: string[];
}

/** Far beyond any real log; keeps the offset a safe integer. */
export const MAX_AUDIT_PAGE = 100_000;

const personSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const actionSchema = z.string().refine((value) => actionFilterLabel(value) !== null);
const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    // Real calendar days only (no 31 February), in years a database timestamp and a person both read plainly.
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value && value >= "2000-01-01" && value <= "9999-12-30";
  });
const pageSchema = z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE);

export function parseAuditFilters(input: URLSearchParams | PageSearchParams): ParsedAuditFilters {
  const params = pageSearchParams(input);
  const notices: string[] = [];
  const one = <T>(name: string, label: string, schema: z.ZodType<T>, why: string): T | null => {
    const values = params.getAll(name).filter((v) => v !== "");
    if (values.length === 0) return null;
    if (values.length > 1) {
      notices.push(`The ${label} was given more than once, so it was ignored.`);
      return null;
    }
    const parsed = schema.safeParse(values[0]);
    if (!parsed.success) {
      notices.push(`${why} It was ignored.`);
      return null;
    }
    return parsed.data;
  };
  const person = one("person", "person", personSchema, "That is not a person of this team.");
  const action = one("action", "action", actionSchema, "That is not an action the log records.");
  let from = one("from", "start date", daySchema, "The start date is not a date (use the date picker, or YYYY-MM-DD).");
  let to = one("to", "end date", daySchema, "The end date is not a date (use the date picker, or YYYY-MM-DD).");
  const page = one("page", "page number", pageSchema, `The page number must be a whole number from 1 to ${MAX_AUDIT_PAGE.toLocaleString("en-US")}.`) ?? 1;
  if (from && to && from > to) {
    [from, to] = [to, from];
    notices.push("The start date was after the end date, so the two were swapped.");
  }
  return { filters: { person, action, from, to, page }, notices };
}

/** The URL's query for filters (only the ones set; page 1 is left out), e.g. for paging and the CSV link. */
export function auditFilterQuery(filters: Partial<AuditFilters>, overrides: Partial<AuditFilters> = {}): string {
  const merged = { ...filters, ...overrides };
  const params = new URLSearchParams();
  if (merged.person) params.set("person", merged.person);
  if (merged.action) params.set("action", merged.action);
  if (merged.from) params.set("from", merged.from);
  if (merged.to) params.set("to", merged.to);
  if (merged.page && merged.page > 1) params.set("page", String(merged.page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The UTC instants a day range covers: from midnight of `from` up to (not including) midnight after `to`. */
export function dayRange(from: string | null, to: string | null): { gte?: Date; lt?: Date } {
  const range: { gte?: Date; lt?: Date } = {};
  if (from) range.gte = new Date(`${from}T00:00:00.000Z`);
  if (to) range.lt = new Date(new Date(`${to}T00:00:00.000Z`).getTime() + 86_400_000);
  return range;
}

export function hasFilters(filters: AuditFilters): boolean {
  return Boolean(filters.person || filters.action || filters.from || filters.to);
}
