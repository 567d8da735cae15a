import { describe, expect, it } from "vitest";
import { eventSchema, webhookGroupSchema, webhookSchema } from "@/lib/sandbox/api/resources";
import { datasetFor } from "@/lib/sandbox/data/datasets";
import { generateEvents, generateWebhookGroups } from "@/lib/sandbox/data/generate";

const materialize = (count: number, seed: number, order: "forward" | "backward" = "forward") => {
  const generated = generateWebhookGroups(count, seed);
  const indexes = Array.from({ length: count }, (_, i) => (order === "forward" ? i : count - 1 - i));
  const rows = new Map(indexes.map((i) => [i, { group: generated.groupAt(i), webhooks: generated.webhooksOf(i) }]));
  return indexes.map((_, i) => rows.get(i)!);
};

describe("generated data", () => {
  it("is deterministic per seed, whatever order rows are made in, and differs between seeds", () => {
    expect(materialize(50, 42)).toEqual(materialize(50, 42, "backward"));
    expect(generateEvents(30, 42)).toEqual(generateEvents(30, 42));
    expect(generateWebhookGroups(50, 43).names).not.toEqual(generateWebhookGroups(50, 42).names);
  });

  it("matches the contract's shapes, with ascending unique ids", () => {
    const rows = materialize(300, 7);
    rows.forEach(({ group, webhooks }, index) => {
      webhookGroupSchema.strict().parse(group);
      if (index > 0) expect(group.id).toBeGreaterThan(rows[index - 1].group.id);
      for (const hook of webhooks) expect(webhookSchema.strict().parse(hook).group_id).toBe(group.id);
    });
    const hookIds = rows.flatMap(({ webhooks }) => webhooks.map((hook) => hook.id));
    expect(new Set(hookIds).size).toBe(hookIds.length);

    const events = generateEvents(300, 7);
    for (const event of events) {
      eventSchema.strict().parse(event);
      expect(event.end_date >= event.start_date).toBe(true);
      expect(event.updated_at >= event.created_at).toBe(true);
    }
    for (const zone of new Set(events.map((event) => event.timezone))) {
      expect(() => new Intl.DateTimeFormat("en", { timeZone: zone })).not.toThrow();
    }
  });

  it("generates 100,000 groups in under 5 seconds", () => {
    const started = performance.now();
    const dataset = datasetFor({ groups: 100_000, events: 10, seed: 99 });
    const elapsed = performance.now() - started;
    expect(dataset.groups.size).toBe(100_000);
    expect(elapsed).toBeLessThan(5000);
    // Cached per seed and size: the second call is free.
    expect(datasetFor({ groups: 100_000, events: 10, seed: 99 })).toBe(dataset);
  });
});
