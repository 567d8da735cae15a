import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import { CONTENT_TYPES, EVENT_STATUSES, TRIGGER_OBJECTS } from "../api/resources";
import { formatEmsTimestamp } from "../core/clock";
import { planFaults, type FaultPlan, type PlantedFault } from "./faults";
import { SeededRandom } from "./random";
import {
  EMAIL_DOMAINS,
  EMAIL_LOCALS,
  EVENT_PLACES,
  EVENT_THEMES,
  EVENT_TOPICS,
  GROUP_PURPOSES,
  GROUP_QUALIFIERS,
  HEADER_TEMPLATES,
  HOOK_HOSTS,
  TIME_ZONES,
  TRIGGER_FIELDS,
  EVENT_DOMAINS,
  US_PLACE_ZONES,
  WEBHOOK_EDITORS,
  WEBHOOK_NOTES,
} from "./vocabulary";

/**
 * Deterministic, realistic records for one account. Ids ascend with small gaps (real tables have
 * deleted rows), names repeat only rarely, and every array may be empty.
 */
/**
 * Webhook groups keep only ids and names in memory (what search and sort need); the rest of a
 * group and its webhooks come from their own seeded stream (seed and group id), made on first use
 * and then kept. So 100,000 groups take a few arrays, and a row is the same whenever it is made.
 * The faults planted for the health checks (./faults.ts) are a small plan made from the seed up
 * front, so lazily made rows still agree with each other across groups.
 */
export type GeneratedGroups = {
  ids: Int32Array;
  names: string[];
  groupAt: (index: number) => WebhookGroup;
  webhooksOf: (index: number) => Webhook[];
  plan: FaultPlan;
};

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const NO_PAIRS: readonly { key: string; value: string }[] = Object.freeze([]);

function headerPairs(random: SeededRandom, max: number) {
  const count = random.int(0, max);
  if (count === 0) return NO_PAIRS as { key: string; value: string }[];
  const pairs: { key: string; value: string }[] = [];
  const first = random.int(0, HEADER_TEMPLATES.length - 1);
  // Consecutive templates never repeat a header name within one list.
  for (let i = 0; i < count; i++) {
    const [key, value] = HEADER_TEMPLATES[(first + i) % HEADER_TEMPLATES.length];
    pairs.push({ key, value: value(random.token(16)) });
  }
  return pairs;
}

/** `headers` with the plan's shared credential first (replacing any header of the same name). */
function withSharedCredential(headers: readonly { key: string; value: string }[], plan: FaultPlan) {
  return [{ key: plan.sharedCredential.key, value: plan.sharedCredential.value }, ...headers.filter((header) => header.key !== plan.sharedCredential.key)];
}

/** A per-row stream: independent of generation order, so lazily made rows are deterministic. */
function rowRandom(seed: number, id: number, stream: number): SeededRandom {
  return new SeededRandom(seed ^ Math.imul(id, 0x2c1b3c6d), stream);
}

function groupDetails(id: number, name: string, seed: number, planted: readonly PlantedFault[], plan: FaultPlan): WebhookGroup {
  const random = rowRandom(seed, id, 4);
  const emailCount = random.int(0, 3);
  let notificationEmails: string[] = [];
  for (let e = 0; e < emailCount; e++) notificationEmails.push(`${random.pick(EMAIL_LOCALS)}${e || ""}@${random.pick(EMAIL_DOMAINS)}`);
  let headers = headerPairs(random, 3);
  if (planted.includes("no-emails")) notificationEmails = [];
  if (planted.includes("shared-credential")) headers = withSharedCredential(headers, plan);
  // A stream of its own (5), so the fields added later leave every other generated value as it was.
  const created = rowRandom(seed, id, 5).int(0, HOOK_SPAN_SECONDS - 86_400 * 60);
  // Never changed since it was made: its creation time and nobody (docs/ems-api.md §4.1).
  return { id, name, headers, notification_emails: notificationEmails, updated_at: formatEmsTimestamp(HOOK_FIRST_MS + created * 1000), updated_by: null };
}

/**
 * What a webhook's deliveries carry beyond the defaults: `post_field_data` (its chosen fields when
 * neither all nor the default fields) and `custom_fields`. From a stream of their own (7), so the
 * webhook's other values stay as the seed made them before these fields existed.
 */
function deliveryExtras(seed: number, hook: Webhook): Pick<Webhook, "post_field_data" | "custom_fields"> {
  const random = rowRandom(seed, hook.id, 7);
  const choices = TRIGGER_FIELDS[hook.trigger_object];
  const postFieldData = hook.all_fields || hook.use_default_fields ? [] : choices.filter(() => random.chance(0.5));
  const customFields: Webhook["custom_fields"] = random.chance(0.25) ? [{ key: "event_id", type: hook.trigger_object, value: "event_id" }] : [];
  if (random.chance(0.1)) customFields.push({ key: "source", type: "static", value: "ems-portal" });
  return { post_field_data: postFieldData.length || hook.all_fields || hook.use_default_fields ? postFieldData : [choices[0]], custom_fields: customFields };
}

/** Up to `max` distinct ids from `pool`, ascending. */
function pickIds(random: SeededRandom, pool: readonly number[], min: number, max: number): number[] {
  if (pool.length === 0) return [];
  const wanted = Math.min(pool.length, random.int(min, max));
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(random.pick(pool));
  return [...chosen].sort((a, b) => a - b);
}

/** 2024-01-01 .. 2026-09-30 (UTC), a fixed window for determinism. */
const HOOK_FIRST_MS = Date.UTC(2024, 0, 1);
const HOOK_SPAN_SECONDS = (Date.UTC(2026, 8, 30) - HOOK_FIRST_MS) / 1000;

/**
 * Webhook ids derive from the group id (`group id * 10 + position`), unique and ascending across
 * groups without a counter. The faults planted in this group (./faults.ts) overwrite the first
 * webhooks, one fault each.
 */
/** The plan's past events as a set, made once per plan (groups are generated one at a time). */
const pastSets = new WeakMap<FaultPlan, ReadonlySet<number>>();
function pastEventsOf(plan: FaultPlan): ReadonlySet<number> {
  let past = pastSets.get(plan);
  if (!past) pastSets.set(plan, (past = new Set(plan.pastEventIds)));
  return past;
}

function generateWebhooks(groupId: number, seed: number, planted: readonly PlantedFault[], plan: FaultPlan): Webhook[] {
  const random = rowRandom(seed, groupId, 3);
  const past = pastEventsOf(plan);
  const count = Math.max(random.int(0, 8), planted.length);
  const hooks: Webhook[] = new Array(count);
  for (let h = 0; h < count; h++) {
    const trigger = random.pick(TRIGGER_OBJECTS);
    // Catch-all webhooks in the demo data are legacy ones, left disabled: so some events stay uncovered.
    const anyEvent = random.chance(0.02);
    const insecure = random.chance(0.04);
    let publicUser = random.chance(0.6);
    const adminUser = random.chance(0.7);
    const apiCall = random.chance(0.4);
    if (!publicUser && !adminUser && !apiCall) publicUser = true;
    const allFields = random.chance(0.4);
    const useDefaultFields = !allFields && random.chance(0.5);
    const fieldChoices = TRIGGER_FIELDS[trigger];
    const fields = allFields || useDefaultFields ? [] : fieldChoices.filter(() => random.chance(0.5));
    const createdSeconds = random.int(0, HOOK_SPAN_SECONDS - 86_400 * 30);
    const updatedSeconds = createdSeconds + (random.chance(0.3) ? 0 : random.int(60, 86_400 * 30));
    const createdBy = random.chance(0.9) ? random.pick(WEBHOOK_EDITORS) : null;
    const hook: Webhook = {
      id: groupId * 10 + h + 1,
      name: `${trigger} → ${random.pick(GROUP_PURPOSES)}`,
      url: `${insecure ? "http" : "https"}://${random.pick(HOOK_HOSTS)}/ems/${trigger}/${random.token(10)}`,
      group_id: groupId,
      trigger_object: trigger,
      trigger_on_insert: random.chance(0.8),
      trigger_on_update: random.chance(0.6),
      trigger_on_delete: random.chance(0.3),
      public_user: publicUser,
      admin_user: adminUser,
      api_call: apiCall,
      any_event: anyEvent,
      event_ids: anyEvent ? [] : pickIds(random, plan.coverableEventIds, 1, 4),
      enabled: anyEvent ? false : random.chance(0.96),
      content_type: random.chance(0.75) ? CONTENT_TYPES[0] : CONTENT_TYPES[1],
      all_fields: allFields,
      use_default_fields: useDefaultFields,
      post_field_data: [],
      fields: fields.length || allFields || useDefaultFields ? fields : [fieldChoices[0]],
      custom_fields: [],
      headers: headerPairs(random, 2),
      notes: random.chance(0.3) ? random.pick(WEBHOOK_NOTES) : null,
      created_at: formatEmsTimestamp(HOOK_FIRST_MS + createdSeconds * 1000),
      created_by: createdBy,
      updated_at: formatEmsTimestamp(HOOK_FIRST_MS + updatedSeconds * 1000),
      updated_by: updatedSeconds === createdSeconds ? createdBy : random.chance(0.9) ? random.pick(WEBHOOK_EDITORS) : null,
    };
    // Most teams that receive a record's inserts receive its deletions too, and point a webhook at
    // events still to come: those faults are planted where they belong (below), not left to chance,
    // so the health checks of a demo account read like a real team's short list. No random draw.
    if (hook.trigger_on_insert) hook.trigger_on_delete = true;
    Object.assign(hook, deliveryExtras(seed, hook));
    if (hook.event_ids!.length > 0 && hook.event_ids!.every((id) => past.has(id)) && plan.liveEventIds.length > 0) {
      hook.event_ids = [...hook.event_ids!, plan.liveEventIds[hook.id % plan.liveEventIds.length]];
    }
    hooks[h] = hook;
  }
  planted.forEach((fault, position) => plantFault(hooks, position, fault, plan, random));
  return hooks;
}

/** Makes `hooks[position]` show one planted fault (and keeps the rest of the group from hiding it). */
function plantFault(hooks: Webhook[], position: number, fault: PlantedFault, plan: FaultPlan, random: SeededRandom): void {
  const hook = hooks[position];
  const covering = { any_event: false, enabled: true };
  switch (fault) {
    case "http-url":
      Object.assign(hook, covering, { url: hook.url.replace(/^https?:/, "http:"), event_ids: pickIds(random, plan.liveEventIds, 1, 2) });
      break;
    case "duplicate-url":
      Object.assign(hook, covering, {
        url: plan.duplicateUrl,
        trigger_object: "registrant",
        trigger_on_insert: true,
        event_ids: pickIds(random, plan.liveEventIds, 1, 2),
      });
      break;
    case "shared-credential":
      Object.assign(hook, covering, { headers: withSharedCredential(hook.headers, plan) });
      break;
    case "insert-without-delete":
      Object.assign(hook, covering, {
        trigger_object: "session",
        trigger_on_insert: true,
        trigger_on_delete: false,
        event_ids: pickIds(random, plan.liveEventIds, 1, 2),
      });
      // No other webhook of the group sends the deletions of sessions either.
      for (const other of hooks) if (other.trigger_object === "session") other.trigger_on_delete = false;
      break;
    case "past-events-only":
      Object.assign(hook, covering, { event_ids: pickIds(random, plan.pastEventIds, 1, 2) });
      break;
    case "disabled-live":
      // It also names the first event (live, left uncovered): the disabled webhook is why.
      Object.assign(hook, {
        any_event: false,
        enabled: false,
        event_ids: [...new Set([...pickIds(random, plan.liveEventIds, 1, 2), ...plan.uncoveredEventIds.slice(0, 1)])],
      });
      break;
    case "no-emails":
      // A group fault (groupDetails): its webhook stays as generated.
      break;
  }
}

/**
 * Webhook groups for one account; `events` are the account's events (what webhooks fire for), made
 * first from the same seed.
 */
export function generateWebhookGroups(count: number, seed: number, events: readonly EmsEvent[] = []): GeneratedGroups {
  const random = new SeededRandom(seed, 1);
  const ids = new Int32Array(count);
  const names: string[] = new Array(count);
  let groupId = random.int(1, 40);
  for (let i = 0; i < count; i++) {
    groupId += random.chance(0.15) ? random.int(2, 4) : 1;
    ids[i] = groupId;
    const qualifier = random.chance(0.6) ? ` ${random.pick(GROUP_QUALIFIERS)}` : "";
    // The trailing number keeps names distinct across large datasets, like real teams' "#2" copies.
    names[i] = `${random.pick(GROUP_PURPOSES)}${qualifier} #${i + 1}`;
  }
  const plan = planFaults(count, seed, events);
  const groups: (WebhookGroup | undefined)[] = new Array(count);
  const webhooks: (Webhook[] | undefined)[] = new Array(count);
  const plantedIn = (index: number) => plan.byGroupIndex.get(index) ?? [];
  return {
    ids,
    names,
    groupAt: (index) => (groups[index] ??= groupDetails(ids[index], names[index], seed, plantedIn(index), plan)),
    webhooksOf: (index) =>
      (webhooks[index] ??= generateWebhooks(
        ids[index],
        seed,
        plantedIn(index).filter((fault) => fault !== "no-emails"),
        plan,
      )),
    plan,
  };
}

/** Days since 1970-01-01 of 2024-01-01; events span 2024..2027, a fixed window for determinism. */
const FIRST_DAY = Date.UTC(2024, 0, 1) / 86_400_000;
/** Live and draft events take place from here on (two years), closed ones in the two years from FIRST_DAY. */
const UPCOMING_FIRST_DAY = Date.UTC(2027, 0, 1) / 86_400_000;
const STATUS_SPAN_DAYS = 730;

/**
 * The start day of an event of `status`, from its generated day: live and draft events are
 * upcoming (2027-2028), closed ones past (2024-2025), cancelled ones anywhere. Deterministic (no
 * random draw), so the rest of the generated data stays as the seed makes it; coverage and health
 * checks judge "ended" by status and dates together, as they would for a real account.
 */
function datesForStatus(status: string, day: number): number {
  const offset = (day - FIRST_DAY) % STATUS_SPAN_DAYS;
  if (status === "live" || status === "draft") return UPCOMING_FIRST_DAY + offset;
  if (status === "closed") return FIRST_DAY + offset;
  return day;
}

function isoDate(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

function slugify(text: string, id: number): string {
  const ascii = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return ascii.length >= 3 ? `${ascii}-${id}` : `event-${id}`;
}

/** The fields production also knows (docs/ems-api.md §4.2), from a stream of their own (6) per event. */
function eventExtras(seed: number, id: number, name: string, startDay: number) {
  const random = rowRandom(seed, id, 6);
  const online = random.chance(0.2);
  const slug = slugify(name, id);
  return {
    close_date: random.chance(0.7) ? isoDate(startDay - random.int(0, 14)) : null,
    close_time: random.chance(0.7) ? `${pad2(random.int(8, 23))}:00:00` : null,
    description: random.chance(0.6) ? `${name}: talks, workshops and people to meet.` : null,
    domain: random.chance(0.3) ? random.pick(EVENT_DOMAINS) : null,
    hashtag: random.chance(0.5) ? `#${slug.replace(/-\d+$/, "").replace(/-/g, "").slice(0, 20) || "event"}` : null,
    organizer_id: random.chance(0.8) ? random.int(1, 40) : null,
    target_attendance: random.chance(0.6) ? random.int(5, 300) * 10 : null,
    webinar_url: online ? `https://webinar.example.com/join/${random.token(10)}` : null,
    created_by: random.pick(WEBHOOK_EDITORS),
    updated_by: random.chance(0.8) ? random.pick(WEBHOOK_EDITORS) : null,
  };
}

export function generateEvents(count: number, seed: number): EmsEvent[] {
  const random = new SeededRandom(seed, 2);
  const events: EmsEvent[] = new Array(count);
  let id = random.int(1000, 5000);
  for (let i = 0; i < count; i++) {
    id += random.int(1, 5);
    const year = 2025 + random.int(0, 2);
    const name = random.chance(0.5)
      ? `${random.pick(EVENT_TOPICS)} ${random.pick(EVENT_THEMES)} ${random.pick(EVENT_PLACES)} ${year}`
      : `${random.pick(EVENT_PLACES)} ${random.pick(EVENT_THEMES)} · ${random.pick(EVENT_TOPICS)}`;
    const startDay = FIRST_DAY + random.int(0, 365 * 3);
    const lengthDays = random.chance(0.55) ? 0 : random.int(1, 4);
    const startHour = random.int(7, 18);
    const endHour = lengthDays === 0 ? Math.min(23, startHour + random.int(1, 5)) : random.int(9, 22);
    const createdMs = (startDay - random.int(20, 400)) * 86_400_000 + random.int(0, 86_399) * 1000;
    const updatedMs = createdMs + random.int(0, 60 * 86_400) * 1000;
    const capacityKnown = random.chance(0.8);
    // The first four events cover every status, so even tiny datasets show all of them.
    const status = i < EVENT_STATUSES.length ? EVENT_STATUSES[i] : random.pick(EVENT_STATUSES);
    // Dates that agree with the status: a live or draft event has not ended, a closed one has.
    const shiftDays = datesForStatus(status, startDay) - startDay;
    events[i] = {
      id,
      name,
      status,
      type_id: random.chance(0.85) ? random.int(1, 12) : null,
      folder_id: random.chance(0.6) ? random.int(1, 30) : null,
      start_date: isoDate(startDay + shiftDays),
      end_date: isoDate(startDay + shiftDays + lengthDays),
      start_time: `${pad2(startHour)}:${random.pick(["00", "15", "30", "45"])}:00`,
      end_time: `${pad2(endHour)}:${random.pick(["00", "30"])}:00`,
      // Cycle through the zones first so that a default dataset shows them all.
      timezone: i < TIME_ZONES.length ? TIME_ZONES[(i * 7) % TIME_ZONES.length] : random.pick(TIME_ZONES),
      capacity: capacityKnown ? random.int(2, 400) * 10 : null,
      free_event: random.chance(0.3) ? 1 : 0,
      url: slugify(name, id),
      created_at: formatEmsTimestamp(createdMs + shiftDays * 86_400_000),
      updated_at: formatEmsTimestamp(updatedMs + shiftDays * 86_400_000),
      ...eventExtras(seed, id, name, startDay + shiftDays),
    };
    // An event in the United States is in its place's zone, named as production names it (§4.2).
    const usZone = Object.keys(US_PLACE_ZONES).find((place) => name.includes(place));
    if (usZone) events[i].timezone = US_PLACE_ZONES[usZone];
  }
  return events;
}
