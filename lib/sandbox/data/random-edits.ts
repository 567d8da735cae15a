import type { Edit, EditKind } from "../api/edit-schema";
import { TRIGGER_OBJECTS } from "../api/resources";
import type { DatasetCopy } from "./dataset-copy";
import { SeededRandom } from "./random";
import { EMAIL_DOMAINS, EMAIL_LOCALS, GROUP_PURPOSES, GROUP_QUALIFIERS, HEADER_TEMPLATES, HOOK_COMPANIES, WEBHOOK_EDITORS } from "./vocabulary";

/**
 * The seeded choice of edits a person might make (data/edits.ts applies them). The same seed over
 * the same data makes the same edits: each edit is chosen from the data as the previous ones left
 * it (the caller applies one before asking for the next), so a removed webhook is never edited.
 */
export type EditableData = Pick<DatasetCopy, "groupCount" | "groupAt" | "webhooksOf" | "original">;

/** A stream of its own, so these draws never follow the generator's for the same seed. */
const RANDOM_EDITS_STREAM = 11;

export function randomEditStream(seed: number): SeededRandom {
  return new SeededRandom(seed, RANDOM_EDITS_STREAM);
}

/** Mostly the first groups: a listing's first pages show them, and the planted faults are there (data/faults.ts). */
const PREFERRED_GROUPS = 40;
const PREFERRED_SHARE = 0.9;

const KIND_WEIGHTS: readonly (readonly [EditKind, number])[] = [
  ["set-url", 20],
  ["set-enabled", 18],
  ["set-header", 14],
  ["remove-header", 8],
  ["add-webhook", 10],
  ["remove-webhook", 6],
  ["rename-group", 12],
  ["set-notification-emails", 12],
];
const TOTAL_WEIGHT = KIND_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);

function pickKind(random: SeededRandom): EditKind {
  let roll = random.next() * TOTAL_WEIGHT;
  for (const [kind, weight] of KIND_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return KIND_WEIGHTS[0][0];
}

function pickGroupIndex(random: SeededRandom, count: number): number {
  const preferred = Math.min(count, PREFERRED_GROUPS);
  return random.chance(PREFERRED_SHARE) ? random.int(0, preferred - 1) : random.int(0, count - 1);
}

function hookUrl(random: SeededRandom, trigger: string): string {
  return `https://hooks.${random.pick(HOOK_COMPANIES)}.example/ems/${trigger}/${random.token(10)}`;
}

/** Mostly credentials (X-Api-Key, Authorization: the first templates), with a random-looking value. */
function header(random: SeededRandom): { key: string; value: string } {
  const [key, value] = random.chance(0.7) ? HEADER_TEMPLATES[random.int(0, 1)] : random.pick(HEADER_TEMPLATES);
  return { key, value: value(random.token(16)) };
}

function eventIds(random: SeededRandom, pool: readonly number[]): number[] {
  if (pool.length === 0) return [];
  const wanted = Math.min(pool.length, random.int(1, 3));
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(random.pick(pool));
  return [...chosen].sort((a, b) => a - b);
}

/** One edit of the data as it is now; undefined when the account has no group to edit. */
export function randomEdit(random: SeededRandom, data: EditableData): Edit | undefined {
  if (data.groupCount === 0) return undefined;
  const by = random.pick(WEBHOOK_EDITORS);
  const groupIndex = pickGroupIndex(random, data.groupCount);
  const group = data.groupAt(groupIndex);
  const webhooks = data.webhooksOf(groupIndex);
  let kind = pickKind(random);
  // A group without webhooks: the person adds one rather than editing one.
  if (webhooks.length === 0 && ["set-url", "set-enabled", "remove-webhook"].includes(kind)) kind = "add-webhook";
  const webhook = webhooks.length ? random.pick(webhooks) : undefined;
  const withHeaders = [
    ...group.headers.map(({ key }) => ({ target: "group" as const, id: group.id, key })),
    ...webhooks.flatMap((hook) => hook.headers.map(({ key }) => ({ target: "webhook" as const, id: hook.id, key }))),
  ];
  if (kind === "remove-header" && withHeaders.length === 0) kind = "set-header";

  switch (kind) {
    case "set-url":
      return { kind, webhookId: webhook!.id, url: hookUrl(random, webhook!.trigger_object), by };
    case "set-enabled":
      return { kind, webhookId: webhook!.id, enabled: !webhook!.enabled, by };
    case "remove-webhook":
      return { kind, webhookId: webhook!.id, by };
    case "add-webhook": {
      const trigger = random.pick(TRIGGER_OBJECTS);
      return {
        kind,
        groupId: group.id,
        webhook: {
          name: `${trigger} → ${random.pick(GROUP_PURPOSES)}`,
          url: hookUrl(random, trigger),
          trigger_object: trigger,
          trigger_on_update: random.chance(0.6),
          event_ids: eventIds(random, data.original.plan.coverableEventIds),
        },
        by,
      };
    }
    case "set-header": {
      const onWebhook = webhook !== undefined && random.chance(0.6);
      return { kind, target: onWebhook ? "webhook" : "group", id: onWebhook ? webhook.id : group.id, ...header(random), by };
    }
    case "remove-header":
      return { kind, ...random.pick(withHeaders), by };
    case "rename-group":
      // The trailing number keeps names distinct, as generated names are (data/generate.ts).
      return { kind, groupId: group.id, name: `${random.pick(GROUP_PURPOSES)} ${random.pick(GROUP_QUALIFIERS)} #${groupIndex + 1}`, by };
    case "set-notification-emails": {
      const count = random.chance(0.15) ? 0 : random.int(1, 3);
      const emails = Array.from({ length: count }, (_, e) => `${random.pick(EMAIL_LOCALS)}${e || ""}@${random.pick(EMAIL_DOMAINS)}`);
      return { kind, groupId: group.id, emails, by };
    }
  }
}
