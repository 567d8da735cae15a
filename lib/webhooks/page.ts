import "server-only";
import type { Actor } from "@/lib/access/actor";
import { WEBHOOK_FIELDS, type EmsEvent, type RecordQueryFor, type Webhook } from "@/lib/ems";
import { loadRecord, type Freshness, type ListingFailure, type RateBudget } from "@/lib/ems-access/shared-read";
import { loadHealthReport } from "@/lib/health/report";
import type { Finding } from "@/lib/health/rules";
import { withoutWebhookHeaderValues, type WebhookForPage } from "@/lib/listing/header-values";
import { parseRecordId } from "@/lib/listing/ids";
import { loadEventNames, type EventNames } from "@/lib/listing/group";
import { eventScope, isLive, labelOf, mayBeEnabled, possibleTriggers, utcDay, type TriggerKey } from "@/lib/setup/setup-data";

/** What a webhook's page reads: the webhook itself, every field (one credit, shared like a listing). */
export const WEBHOOK_PAGE_QUERY: RecordQueryFor<"webhooks"> = { fields: [...WEBHOOK_FIELDS] };

/** One event the webhook is set up for, with the trigger cells of the coverage grid it fills there. */
export interface WebhookEventCoverage {
  id: number;
  name: string;
  status: string | null;
  live: boolean;
  /** Empty when the webhook is disabled or its switches leave nothing: it fills no cell. */
  cells: readonly TriggerKey[];
}

/** The account around the webhook, from the health report's setup (null parts: it could not be read). */
export interface WebhookSurroundings {
  groupName: string | null;
  /** This webhook's unmuted findings, errors first. */
  findings: Finding[];
  /** Muted findings about it: said, not shown as problems. */
  mutedCount: number;
  /** The events it is set up for, known to the setup: every event for a catch-all webhook. */
  events: WebhookEventCoverage[];
  /** Ids it lists that the account's events do not include. */
  unknownEventIds: number[];
  /** Its listed or covered events that are live today. */
  liveEventCount: number;
}

/** A webhook as its page and its side panel show it. */
export interface WebhookPageContent {
  kind: "ok";
  webhook: WebhookForPage;
  budget: RateBudget | null;
  freshness: Freshness;
  surroundings: Promise<WebhookSurroundings | ListingFailure>;
  /** The names of the events it lists (the team's shared event directory): null for a catch-all. */
  eventNames: Promise<EventNames> | null;
}

export type WebhookPageData = WebhookPageContent | { kind: "not-found" } | ListingFailure;

/**
 * The webhook that `/webhooks/{id}` names, for its page and its side panel alike: a segment that is
 * not an id is "not found", as another account's webhook is.
 */
export async function loadWebhookAt(actor: Actor, idSegment: string): Promise<WebhookPageData> {
  const id = parseRecordId(idSegment);
  return id === null ? { kind: "not-found" } : loadWebhookPage(actor, id);
}

/**
 * The webhook behind `/webhooks/{id}`, as this person's own credential sees it: another account's
 * webhook is not there, so it is "not found" like one that does not exist. Header values are
 * dropped before anything renders (lib/listing/header-values.ts). What the account around it says
 * (its findings, its events and the coverage cells it fills) comes after, from the health report.
 */
export async function loadWebhookPage(actor: Actor, id: number): Promise<WebhookPageData> {
  const outcome = await loadRecord(actor, "webhooks", id, WEBHOOK_PAGE_QUERY);
  if (outcome.kind !== "ok") return outcome;
  if (!outcome.item) return { kind: "not-found" };
  const webhook = outcome.item;
  return {
    kind: "ok",
    webhook: withoutWebhookHeaderValues(webhook),
    budget: outcome.budget,
    freshness: outcome.freshness,
    surroundings: loadSurroundings(actor, webhook),
    eventNames: webhook.event_ids && webhook.event_ids.length > 0 && !webhook.any_event ? loadEventNames(actor, webhook.event_ids) : null,
  };
}

const SEVERITY_RANK = { error: 0, warning: 1, notice: 2 } as const;

async function loadSurroundings(actor: Actor, webhook: Webhook): Promise<WebhookSurroundings | ListingFailure> {
  const report = await loadHealthReport(actor);
  if (report.kind !== "ok") return report;
  const about = (finding: Finding) => finding.subjects.some((subject) => subject.kind === "webhook" && subject.id === webhook.id);
  const { groups, events } = report.snapshot.data;
  const group = webhook.group_id == null ? undefined : groups.find((candidate) => candidate.id === webhook.group_id);
  return {
    groupName: group ? labelOf(group) : null,
    findings: report.active.filter(about).sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]),
    mutedCount: report.muted.filter(({ finding }) => about(finding)).length,
    ...coverageOf(webhook, events, new Date()),
  };
}

/**
 * Which events the webhook is set up for and which trigger cells it fills for each (the coverage
 * grid's reading, lib/coverage): its object with each action not switched off, while it may be
 * enabled. Pure.
 */
export function coverageOf(webhook: Webhook, events: readonly EmsEvent[], now: Date): Pick<WebhookSurroundings, "events" | "unknownEventIds" | "liveEventCount"> {
  const today = utcDay(now);
  const scope = eventScope(webhook);
  const cells = mayBeEnabled(webhook) ? possibleTriggers(webhook) : [];
  const byId = new Map(events.map((event) => [event.id, event]));
  const chosen = scope.kind === "all" ? events : scope.kind === "listed" ? scope.eventIds.flatMap((eventId) => byId.get(eventId) ?? []) : [];
  const unknownEventIds = scope.kind === "listed" ? scope.eventIds.filter((eventId) => !byId.has(eventId)) : [];
  const rows = chosen.map((event) => ({ id: event.id, name: labelOf(event), status: event.status ?? null, live: isLive(event, today), cells }));
  return { events: rows, unknownEventIds, liveEventCount: rows.filter((row) => row.live).length };
}
