import "server-only";
import type { Actor } from "@/lib/access/actor";
import { loadListing, loadListingOfIds } from "@/lib/listing/load";
import { withinIds } from "@/lib/listing/id-set-pages";
import { loadCheckSubjects } from "@/lib/health/check-subjects";
import { MAX_IDS } from "@/lib/ems/contract";
import { parseListingSearchParams, type ListingState, type SearchParamsInput } from "@/lib/listing/search-params";
import { admitted, BusyError, chargeReadCredits } from "@/lib/admission";
import { failureOf, type ListingFailure } from "@/lib/ems-access/shared-read";
import { pageSearchParams } from "@/lib/page-search-params";
import { LISTING_COST } from "@/lib/ems";
import { MAX_PLAN_OPERATIONS } from "./limits";

/** What /plans/new is asked for: a resource and a list's own URL options, or Health's "Fix…". */
export interface NewPlanRequest {
  resource: "webhooks" | "webhook-groups";
  /** `fix=<check>&key=<finding>`: the records and the change come from the finding. */
  fix: { ruleId: string; key: string } | null;
  /**
   * The whole URL, for the listing's own parser (which ignores `resource`, `fix` and `key`): every
   * repeated `filter=` of "Change these…" stays, so the plan selects exactly what the list showed.
   */
  options: URLSearchParams;
}

export function parseNewPlanParams(input: SearchParamsInput): NewPlanRequest {
  const params = pageSearchParams(input);
  const fix = params.get("fix") ?? "";
  return {
    resource: params.get("resource") === "webhook-groups" ? "webhook-groups" : "webhooks",
    fix: fix ? { ruleId: fix, key: params.get("key") ?? "" } : null,
    options: params,
  };
}

/**
 * The records a bulk edit is for, chosen the way the lists choose them: the same URL options (filters,
 * search, ids) as /webhooks or /webhook-groups, every page of them, ids and names only (200 a call,
 * 10 credits each, shared like any listing). A coverage cell or a health finding passes `ids=`.
 */
export interface Selection {
  kind: "ok";
  resource: "webhooks" | "webhook-groups";
  records: { id: number; name: string }[];
  total: number;
  /** More match than a plan may hold: the first MAX_PLAN_OPERATIONS are selected. */
  truncated: boolean;
  /** What the URL asked for that was ignored, in words. */
  notices: string[];
}

/**
 * Admitted as heavy work (lib/admission.ts: the "busy" failure while this person, or too many
 * people on this instance, read one), unless it is at most one page: a selection of `ids=` is.
 */
export async function loadSelection(actor: Actor, resource: "webhooks" | "webhook-groups", input: SearchParamsInput): Promise<Selection | ListingFailure> {
  const state = parseListingSearchParams(resource, input);
  try {
    if (state.ids.length > 0) return await readSelection(actor, resource, state);
    return await admitted("selection", actor.userId, () => readSelection(actor, resource, state));
  } catch (error) {
    if (error instanceof BusyError) return failureOf(error);
    throw error;
  }
}

async function readSelection(actor: Actor, resource: "webhooks" | "webhook-groups", state: ListingState): Promise<Selection | ListingFailure> {
  if (state.check) return readCheckSelection(actor, resource, state, state.check);
  const records: { id: number; name: string }[] = [];
  let total = 0;
  for (let page = 1; records.length < MAX_PLAN_OPERATIONS; page++) {
    // Each page is a listing call (10 credits) of the person's allowance for costly reads.
    chargeReadCredits(actor.userId, LISTING_COST);
    const outcome = await loadListing(actor, { ...state, fields: ["id", "name"], page, perPage: 200, sort: [{ field: "id", direction: "asc" }] });
    if (outcome.kind !== "ok") return outcome;
    total = outcome.meta.totalCount;
    for (const item of outcome.items) records.push({ id: Number(item.id), name: typeof item.name === "string" ? item.name : `#${item.id}` });
    if (page >= outcome.meta.pageCount || outcome.items.length === 0) break;
  }
  return { kind: "ok", resource, records: records.slice(0, MAX_PLAN_OPERATIONS), total, truncated: total > MAX_PLAN_OPERATIONS, notices: state.notices };
}

/**
 * `check=`: the check's records as the list showed them (lib/listing-page/check-filter.ts), from
 * Health's stored result, read from the EMS a page of MAX_IDS ids at a time with the list's other
 * options (which may narrow each page), ids and names only.
 */
async function readCheckSelection(
  actor: Actor,
  resource: "webhooks" | "webhook-groups",
  state: ListingState,
  check: NonNullable<ListingState["check"]>,
): Promise<Selection | ListingFailure> {
  const subjects = await loadCheckSubjects(actor, check);
  if (subjects.kind !== "ok") return subjects;
  const ids = withinIds(subjects.ids, state.ids);
  const records: { id: number; name: string }[] = [];
  let read = 0;
  while (read < ids.length && records.length <= MAX_PLAN_OPERATIONS) {
    chargeReadCredits(actor.userId, LISTING_COST);
    const page = read / MAX_IDS + 1;
    const outcome = await loadListingOfIds(actor, { ...state, fields: ["id", "name"], page, perPage: MAX_IDS, sort: [{ field: "id", direction: "asc" }] }, ids);
    if (outcome.kind !== "ok") return outcome;
    for (const item of outcome.items) records.push({ id: Number(item.id), name: typeof item.name === "string" ? item.name : `#${item.id}` });
    read += MAX_IDS;
  }
  // Every page read: the count is what matched; else at least a plan's worth matched (truncated).
  const total = read >= ids.length ? records.length : Math.max(records.length, ids.length);
  return {
    kind: "ok",
    resource,
    records: records.slice(0, MAX_PLAN_OPERATIONS),
    total,
    truncated: records.length > MAX_PLAN_OPERATIONS || read < ids.length,
    notices: state.notices,
  };
}
