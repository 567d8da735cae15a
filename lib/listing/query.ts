/**
 * From a page's options to the EMS client's query object. The page shows `state.fields`; the query
 * also asks for what rendering those needs (the id for links, an event's time zone and times).
 */
import type { SortKey } from "@/lib/ems/contract";
import type { ListingState } from "./search-params";

export interface EmsListingQuery {
  fields?: string[];
  expand?: string[];
  search?: { field: string; operator: string; value: string }[];
  searchCondition?: "and" | "or";
  page?: number;
  perPage?: number;
  sort?: SortKey[];
  ids?: number[];
}

const EVENT_DATE_FIELDS = ["start_date", "end_date", "created_at", "updated_at"];

/**
 * What a webhook's cell shows beyond its own field (lib/listing/table-rows.ts): the trigger with its
 * insert/update/delete marks, the status with whether it can fire at all, the events with "all
 * events", the last change with who made it.
 */
const WEBHOOK_CELL_NEEDS: Readonly<Record<string, readonly string[]>> = {
  trigger_object: ["trigger_on_insert", "trigger_on_update", "trigger_on_delete"],
  enabled: ["trigger_on_insert", "trigger_on_update", "trigger_on_delete", "public_user", "admin_user", "api_call", "any_event", "event_ids"],
  event_ids: ["any_event"],
  updated_at: ["updated_by"],
  created_at: ["created_by"],
};

export function requestedFields(state: Pick<ListingState, "resource" | "fields">): string[] {
  const fields = new Set<string>(["id", ...state.fields]);
  if (state.resource === "events") {
    if (state.fields.some((f) => EVENT_DATE_FIELDS.includes(f))) fields.add("timezone");
    if (state.fields.includes("start_date")) fields.add("start_time");
    if (state.fields.includes("end_date")) fields.add("end_time");
  }
  if (state.resource === "webhooks") for (const field of state.fields) for (const extra of WEBHOOK_CELL_NEEDS[field] ?? []) fields.add(extra);
  return [...fields];
}

export function toEmsQuery(state: ListingState, overrides: Partial<EmsListingQuery> = {}): EmsListingQuery {
  const query: EmsListingQuery = {
    fields: requestedFields(state),
    page: state.page,
    perPage: state.perPage,
  };
  if (state.expand.length > 0) query.expand = [...state.expand];
  if (state.filters.length > 0) {
    query.search = state.filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value.trim() }));
    if (state.filters.length > 1) query.searchCondition = state.searchCondition;
  }
  if (state.sort.length > 0) query.sort = state.sort.map((s) => ({ ...s }));
  if (state.ids.length > 0) query.ids = [...state.ids];
  return { ...query, ...overrides };
}
