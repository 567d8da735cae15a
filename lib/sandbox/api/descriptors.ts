import { eventSchema, webhookGroupExtraFields, webhookGroupSchema, webhookSchema } from "./resources";

/**
 * What each listing offers, derived from the resource schemas: field lists, the defaults without
 * `fields`, what can be expanded, sorted and searched (and with which type of operators).
 *
 * The sandbox's own copy of the contract, on purpose: it does not import lib/ems/contract.ts (the
 * portal's copy). The two sides of the contract must not share a definition, or a mistake in it
 * would pass every test.
 */
/** `boolean` fields are searched with `0`/`1` and equality only (docs/ems-api.md §4.1a). */
export type SearchFieldType = "number" | "text" | "date" | "boolean";

export type ResourceDescriptor = {
  /** path segment, e.g. `webhook-groups` */
  path: string;
  /** human name for messages */
  label: string;
  standardFields: readonly string[];
  /** fields returned when `fields` is absent */
  defaultFields: readonly string[];
  expandable: readonly string[];
  sortable: readonly string[];
  searchable: Readonly<Record<string, SearchFieldType>>;
  /** date-typed search fields whose values are `YYYY-MM-DD HH:MM:SS` timestamps (else `YYYY-MM-DD`) */
  timestampFields: readonly string[];
};

const groupFields = Object.keys(webhookGroupSchema.shape);
const eventFields = Object.keys(eventSchema.shape);
const webhookFields = Object.keys(webhookSchema.shape);
/** Arrays have no meaningful order. */
const ARRAY_FIELDS = ["event_ids", "fields", "post_field_data", "custom_fields", "headers"];

export const WEBHOOK_GROUPS: ResourceDescriptor = {
  path: "webhook-groups",
  label: "webhook groups",
  standardFields: groupFields,
  defaultFields: groupFields,
  expandable: Object.keys(webhookGroupExtraFields),
  // headers and notification_emails are arrays: no meaningful order.
  sortable: ["id", "name"],
  searchable: { id: "number", name: "text" },
  timestampFields: [],
};

export const EVENTS: ResourceDescriptor = {
  path: "events",
  label: "events",
  standardFields: eventFields,
  // Production returns only id and name of an event without `fields` (docs/ems-api.md §4.2).
  defaultFields: ["id", "name"],
  expandable: [],
  // The fields production also knows (docs/ems-api.md §4.2) are returned, not sorted on [ours].
  sortable: eventFields.slice(0, eventFields.indexOf("updated_at") + 1),
  searchable: {
    id: "number",
    name: "text",
    status: "text",
    start_date: "date",
    end_date: "date",
    created_at: "date",
    updated_at: "date",
  },
  timestampFields: ["created_at", "updated_at"],
};

export const WEBHOOKS: ResourceDescriptor = {
  path: "webhooks",
  label: "webhooks",
  standardFields: webhookFields,
  defaultFields: webhookFields,
  expandable: [],
  sortable: webhookFields.filter((field) => !ARRAY_FIELDS.includes(field)),
  searchable: {
    id: "number",
    group_id: "number",
    name: "text",
    url: "text",
    trigger_object: "text",
    content_type: "text",
    enabled: "boolean",
    any_event: "boolean",
    updated_at: "date",
  },
  timestampFields: ["updated_at"],
};
