import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import type { SandboxAccount } from "../core/config";
import type { FaultPlan } from "./faults";
import { generateEvents, generateWebhookGroups } from "./generate";
import { Table, tableSourceOf } from "./table";

export type AccountDataset = {
  groups: Table<WebhookGroup>;
  /** webhooks of the group at a row index (made on first use) */
  webhooksOf: (index: number) => Webhook[];
  /** every webhook of the account, ascending by id (made on first use: it makes every group's webhooks) */
  readonly webhooks: Table<Webhook>;
  events: Table<EmsEvent>;
  /** where the planted faults are (data/faults.ts) */
  plan: FaultPlan;
};

/**
 * Generated data is cached per (size, seed) for the whole process: many sandbox instances (one per
 * test file) share one copy, and the 100,000-group benchmark dataset is built once.
 */
const cache = new Map<string, AccountDataset>();

export function datasetFor(account: Pick<SandboxAccount, "groups" | "events" | "seed">): AccountDataset {
  const key = `${account.seed}:${account.groups}:${account.events}`;
  let dataset = cache.get(key);
  if (!dataset) {
    const events = generateEvents(account.events, account.seed);
    const generated = generateWebhookGroups(account.groups, account.seed, events);
    const groups = new Table<WebhookGroup>({
      size: generated.ids.length,
      value: (index, field) => (field === "id" ? generated.ids[index] : field === "name" ? generated.names[index] : null),
      row: generated.groupAt,
    });
    let webhooks: Table<Webhook> | undefined;
    dataset = {
      groups,
      webhooksOf: generated.webhooksOf,
      // Group ids ascend and a webhook's id is its group's id * 10 + 1..9: concatenation keeps id order.
      get webhooks() {
        return (webhooks ??= new Table(tableSourceOf(Array.from({ length: generated.ids.length }, (_, index) => generated.webhooksOf(index)).flat())));
      },
      events: new Table(tableSourceOf(events)),
      plan: generated.plan,
    };
    cache.set(key, dataset);
  }
  return dataset;
}
