import { describe, expect, it } from "vitest";
import type { EmsEvent, Webhook, WebhookGroup } from "@/lib/sandbox/api/resources";
import { webhookSchema } from "@/lib/sandbox/api/resources";
import { DEFAULT_ACCOUNTS } from "@/lib/sandbox/core/config";
import { generateEvents, generateWebhookGroups } from "@/lib/sandbox/data/generate";

/**
 * The faults planted in the demo data for the health checks (lib/sandbox/data/faults.ts): each kind
 * is present, found the way a health check would find it (from the listed data only), and the data
 * is the same for the same seed.
 */
type Account = { groups: number; events: number; seed: number };

function generate({ groups: groupCount, events: eventCount, seed }: Account) {
  const events = generateEvents(eventCount, seed);
  const generated = generateWebhookGroups(groupCount, seed, events);
  // Made in reverse order on purpose: lazily made rows must not depend on the order they are made in.
  const indexes = Array.from({ length: groupCount }, (_, index) => groupCount - 1 - index);
  const made = new Map(indexes.map((index) => [index, { group: generated.groupAt(index), webhooks: generated.webhooksOf(index) }]));
  const groups = Array.from({ length: groupCount }, (_, index) => made.get(index)!);
  return { events, groups };
}

const CREDENTIAL_HEADER = /authorization|key|token|secret/i;

/** Each fault kind, found from the data the API lists. */
function findFaults(events: EmsEvent[], groups: { group: WebhookGroup; webhooks: Webhook[] }[]) {
  const hooks = groups.flatMap(({ webhooks }) => webhooks);
  const statusOf = new Map(events.map((event) => [event.id, event.status]));
  const firesFor = (hook: Webhook, eventId: number) => hook.enabled && (hook.any_event || hook.event_ids.includes(eventId));

  const uncoveredEvents = events.filter((event) => !hooks.some((hook) => firesFor(hook, event.id)));
  const disabled = hooks.filter((hook) => !hook.enabled);
  const disabledWithLiveEvent = disabled.filter((hook) => hook.any_event || hook.event_ids.some((id) => statusOf.get(id) === "live"));
  const plainHttp = hooks.filter((hook) => hook.url.startsWith("http://"));
  const withoutEmails = groups.filter(({ group }) => group.notification_emails.length === 0);
  const insertWithoutDelete = groups.filter(({ webhooks }) =>
    webhooks.some((hook) => hook.enabled && hook.trigger_on_insert && !webhooks.some((other) => other.trigger_object === hook.trigger_object && other.trigger_on_delete)),
  );
  const byUrlAndTrigger = new Map<string, Set<number>>();
  for (const hook of hooks) {
    const key = `${hook.url} ${hook.trigger_object}`;
    byUrlAndTrigger.set(key, (byUrlAndTrigger.get(key) ?? new Set()).add(hook.group_id!));
  }
  const sameUrlInGroups = [...byUrlAndTrigger.values()].filter((groupIds) => groupIds.size >= 2);
  const credentialValues = new Map<string, Set<number>>();
  for (const { group, webhooks } of groups) {
    for (const header of [...group.headers, ...webhooks.flatMap((hook) => hook.headers)]) {
      if (CREDENTIAL_HEADER.test(header.key)) credentialValues.set(header.value, (credentialValues.get(header.value) ?? new Set()).add(group.id));
    }
  }
  const sharedCredentials = [...credentialValues.values()].filter((groupIds) => groupIds.size >= 2);
  const pastOnly = hooks.filter(
    (hook) => hook.enabled && !hook.any_event && hook.event_ids.length > 0 && hook.event_ids.every((id) => ["closed", "cancelled"].includes(statusOf.get(id) ?? "")),
  );
  return {
    uncoveredEvents,
    uncoveredLiveEvents: uncoveredEvents.filter((event) => event.status === "live"),
    disabled,
    disabledWithLiveEvent,
    plainHttp,
    withoutEmails,
    insertWithoutDelete,
    sameUrlInGroups,
    sharedCredentials,
    pastOnly,
  };
}

describe("planted faults in the demo data", () => {
  const [demo, other] = DEFAULT_ACCOUNTS;

  it.each([
    ["the demo account", demo],
    ["the second account", other],
    ["a small account (10 groups, 4 events)", { groups: 10, events: 4, seed: 5 }],
    ["another seed", { groups: 300, events: 80, seed: 424242 }],
  ])("%s has every kind of fault", (_, account) => {
    const { events, groups } = generate(account);
    const faults = findFaults(events, groups);
    for (const [kind, found] of Object.entries(faults)) expect({ kind, present: found.length > 0 }).toEqual({ kind, present: true });
  });

  it("keeps the faults a realistic minority", () => {
    const { events, groups } = generate(demo);
    const hooks = groups.flatMap(({ webhooks }) => webhooks);
    const faults = findFaults(events, groups);
    expect(faults.uncoveredEvents.length / events.length).toBeLessThan(0.3);
    expect(faults.disabled.length / hooks.length).toBeLessThan(0.3);
    expect(faults.plainHttp.length / hooks.length).toBeLessThan(0.1);
    for (const hook of hooks) webhookSchema.strict().parse(hook);
    // Every event a webhook names is one of the account's.
    const eventIds = new Set(events.map((event) => event.id));
    for (const hook of hooks) for (const id of hook.event_ids) expect(eventIds.has(id)).toBe(true);
  });

  it("is the same for the same seed, and differs for another", () => {
    const first = generate(demo);
    const again = generate(demo);
    expect(again).toEqual(first);
    expect(findFaults(again.events, again.groups)).toEqual(findFaults(first.events, first.groups));
    const otherSeed = generate({ ...demo, seed: demo.seed + 1 });
    expect(otherSeed.groups.map(({ webhooks }) => webhooks)).not.toEqual(first.groups.map(({ webhooks }) => webhooks));
  });
});
