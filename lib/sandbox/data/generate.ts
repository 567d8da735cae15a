import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import { EVENT_STATUSES } from "../api/resources";
import { formatEmsTimestamp } from "../core/clock";
import { SeededRandom } from "./random";
import {
  EMAIL_DOMAINS, EMAIL_LOCALS, EVENT_PLACES, EVENT_THEMES, EVENT_TOPICS, GROUP_PURPOSES, GROUP_QUALIFIERS,
  HEADER_TEMPLATES, HOOK_HOSTS, TIME_ZONES, TRIGGER_OBJECTS,
} from "./vocabulary";

/**
 * Deterministic, realistic records for one account. Ids ascend with small gaps (real tables have
 * deleted rows), names repeat only rarely, and every array may be empty.
 */
/**
 * Webhook groups keep only ids and names in memory (what search and sort need); the rest of a
 * group and its webhooks come from their own seeded stream (seed and group id), made on first use
 * and then kept. So 100,000 groups take a few arrays, and a row is the same whenever it is made.
 */
export type GeneratedGroups = {
  ids: Int32Array;
  names: string[];
  groupAt: (index: number) => WebhookGroup;
  webhooksOf: (index: number) => Webhook[];
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

/** A per-row stream: independent of generation order, so lazily made rows are deterministic. */
function rowRandom(seed: number, id: number, stream: number): SeededRandom {
  return new SeededRandom(seed ^ Math.imul(id, 0x2c1b3c6d), stream);
}

function groupDetails(id: number, name: string, seed: number): WebhookGroup {
  const random = rowRandom(seed, id, 4);
  const emailCount = random.int(0, 3);
  const notificationEmails: string[] = [];
  for (let e = 0; e < emailCount; e++) notificationEmails.push(`${random.pick(EMAIL_LOCALS)}${e || ""}@${random.pick(EMAIL_DOMAINS)}`);
  return { id, name, headers: headerPairs(random, 3), notification_emails: notificationEmails };
}

/** Webhook ids derive from the group id (`group id * 10 + position`), unique without a counter. */
function generateWebhooks(groupId: number, seed: number): Webhook[] {
  const random = rowRandom(seed, groupId, 3);
  const count = random.int(0, 8);
  const hooks: Webhook[] = new Array(count);
  for (let h = 0; h < count; h++) {
    const trigger = random.pick(TRIGGER_OBJECTS);
    hooks[h] = {
      id: groupId * 10 + h + 1,
      name: `${trigger} → ${random.pick(GROUP_PURPOSES)}`,
      url: `https://${random.pick(HOOK_HOSTS)}/ems/${trigger}/${random.token(10)}`,
      group_id: groupId,
      trigger_object: trigger,
      trigger_on_insert: random.chance(0.8),
      trigger_on_update: random.chance(0.6),
      trigger_on_delete: random.chance(0.3),
      enabled: random.chance(0.85),
      content_type: random.chance(0.75) ? "json" : "form",
      headers: headerPairs(random, 2),
    };
  }
  return hooks;
}

export function generateWebhookGroups(count: number, seed: number): GeneratedGroups {
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
  const groups: (WebhookGroup | undefined)[] = new Array(count);
  const webhooks: (Webhook[] | undefined)[] = new Array(count);
  return {
    ids,
    names,
    groupAt: (index) => (groups[index] ??= groupDetails(ids[index], names[index], seed)),
    webhooksOf: (index) => (webhooks[index] ??= generateWebhooks(ids[index], seed)),
  };
}

/** Days since 1970-01-01 of 2024-01-01; events span 2024..2027, a fixed window for determinism. */
const FIRST_DAY = Date.UTC(2024, 0, 1) / 86_400_000;

function isoDate(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

function slugify(text: string, id: number): string {
  const ascii = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return ascii.length >= 3 ? `${ascii}-${id}` : `event-${id}`;
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
    events[i] = {
      id,
      name,
      // The first four events cover every status, so even tiny datasets show all of them.
      status: i < EVENT_STATUSES.length ? EVENT_STATUSES[i] : random.pick(EVENT_STATUSES),
      type_id: random.chance(0.85) ? random.int(1, 12) : null,
      folder_id: random.chance(0.6) ? random.int(1, 30) : null,
      start_date: isoDate(startDay),
      end_date: isoDate(startDay + lengthDays),
      start_time: `${pad2(startHour)}:${random.pick(["00", "15", "30", "45"])}:00`,
      end_time: `${pad2(endHour)}:${random.pick(["00", "30"])}:00`,
      // Cycle through the zones first so that a default dataset shows them all.
      timezone: i < TIME_ZONES.length ? TIME_ZONES[(i * 7) % TIME_ZONES.length] : random.pick(TIME_ZONES),
      capacity: capacityKnown ? random.int(2, 400) * 10 : null,
      free_event: random.chance(0.3) ? 1 : 0,
      url: slugify(name, id),
      created_at: formatEmsTimestamp(createdMs),
      updated_at: formatEmsTimestamp(updatedMs),
    };
  }
  return events;
}
