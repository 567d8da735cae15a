/**
 * What each listing page offers, built on the contract's field and operator constants
 * (lib/ems/contract.ts is the single source of truth for names and types; this file only adds what
 * the pages need on top: labels and default columns).
 */
import {
  EVENT_FIELDS,
  SEARCHABLE_FIELDS,
  SORTABLE_FIELDS,
  WEBHOOK_GROUP_EXPAND,
  WEBHOOK_GROUP_FIELDS,
  WEBHOOK_FIELDS,
  type EmsResource,
  type FieldType,
  type SortKey,
} from "@/lib/ems/contract";
import { LISTING_TITLES } from "./titles";

export type ListingResource = EmsResource;

export interface ResourceConfig {
  resource: ListingResource;
  path: string;
  title: string;
  /** Every standard field, in the API's order. */
  fields: readonly string[];
  defaultFields: readonly string[];
  /** What `expand` accepts. */
  expandable: readonly string[];
  sortable: readonly string[];
  defaultSort: readonly SortKey[];
  searchable: Readonly<Record<string, FieldType>>;
  labels: Readonly<Record<string, string>>;
}

const WEBHOOK_GROUP_LABELS: Record<string, string> = {
  id: "ID",
  name: "Name",
  headers: "Headers",
  notification_emails: "Notification emails",
};

const EVENT_LABELS: Record<string, string> = {
  id: "ID",
  name: "Name",
  status: "Status",
  type_id: "Type",
  folder_id: "Folder",
  start_date: "Starts",
  end_date: "Ends",
  start_time: "Start time",
  end_time: "End time",
  timezone: "Time zone",
  capacity: "Capacity",
  free_event: "Free",
  url: "URL slug",
  created_at: "Created",
  updated_at: "Updated",
};

/** A webhook's columns (§4.1a): some cells show more than their field (see lib/listing/table-rows.ts). */
const WEBHOOK_LABELS: Record<string, string> = {
  id: "ID",
  name: "Name",
  url: "Target",
  group_id: "Group",
  trigger_object: "Trigger",
  trigger_on_insert: "On insert",
  trigger_on_update: "On update",
  trigger_on_delete: "On delete",
  public_user: "Public users",
  admin_user: "Admin users",
  api_call: "API calls",
  any_event: "All events",
  event_ids: "Events",
  enabled: "Status",
  content_type: "Content type",
  all_fields: "All fields",
  use_default_fields: "Default fields",
  fields: "Fields",
  post_field_data: "Post field data",
  custom_fields: "Custom fields",
  headers: "Headers",
  notes: "Notes",
  created_at: "Created",
  created_by: "Created by",
  updated_at: "Last change",
  updated_by: "Changed by",
};

const webhookGroupFields: readonly string[] = WEBHOOK_GROUP_FIELDS;
const webhookFields: readonly string[] = WEBHOOK_FIELDS;
const eventFields: readonly string[] = EVENT_FIELDS;

export const WEBHOOK_GROUP_LISTING: ResourceConfig = {
  resource: "webhook-groups",
  path: "/webhook-groups",
  title: LISTING_TITLES["webhook-groups"],
  fields: webhookGroupFields,
  defaultFields: webhookGroupFields.filter((f) => ["id", "name", "headers", "notification_emails"].includes(f)),
  expandable: WEBHOOK_GROUP_EXPAND,
  sortable: SORTABLE_FIELDS["webhook-groups"],
  defaultSort: [],
  searchable: SEARCHABLE_FIELDS["webhook-groups"],
  labels: WEBHOOK_GROUP_LABELS,
};

export const EVENT_LISTING: ResourceConfig = {
  resource: "events",
  path: "/events",
  title: LISTING_TITLES.events,
  fields: eventFields,
  // The production API returns only id and name without `fields`: these are always asked for by name.
  defaultFields: eventFields.filter((f) => ["id", "name", "status", "start_date", "end_date", "timezone"].includes(f)),
  expandable: [],
  sortable: SORTABLE_FIELDS.events,
  // Events read in the order they happen (issue 26 §3); a `sort` in the URL overrides it.
  defaultSort: [{ field: "start_date", direction: "asc" }],
  searchable: SEARCHABLE_FIELDS.events,
  labels: EVENT_LABELS,
};

export const WEBHOOK_LISTING: ResourceConfig = {
  resource: "webhooks",
  path: "/webhooks",
  title: LISTING_TITLES.webhooks,
  fields: webhookFields,
  // One dense row: the name links to the webhook; the status column also carries its health.
  defaultFields: ["name", "group_id", "trigger_object", "url", "enabled", "event_ids", "updated_at"],
  expandable: [],
  sortable: SORTABLE_FIELDS.webhooks,
  defaultSort: [],
  searchable: SEARCHABLE_FIELDS.webhooks,
  labels: WEBHOOK_LABELS,
};

const LISTINGS: Readonly<Record<ListingResource, ResourceConfig>> = { "webhook-groups": WEBHOOK_GROUP_LISTING, events: EVENT_LISTING, webhooks: WEBHOOK_LISTING };

export function listingConfig(resource: ListingResource): ResourceConfig {
  return LISTINGS[resource];
}

export function fieldLabel(config: ResourceConfig, field: string): string {
  return Object.hasOwn(config.labels, field) ? config.labels[field] : field;
}

export const PER_PAGE_OPTIONS = [20, 50, 100, 200] as const;
export const MAX_SORT_LEVELS = 4;

/** The kind of record each list shows, as a Health finding names it (`check=` filters the list of its check's kind). */
export const SUBJECT_KIND_OF = { "webhook-groups": "group", webhooks: "webhook", events: "event" } as const satisfies Record<ListingResource, string>;
