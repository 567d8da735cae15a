import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import type { SandboxAccount } from "../core/config";
import { generateEvents, generateWebhookGroups } from "./generate";
import { Table } from "./table";

export type AccountDataset = {
  groups: Table<WebhookGroup>;
  /** webhooks of the group at the same row index */
  webhooksByGroup: readonly Webhook[][];
  events: Table<EmsEvent>;
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
    const { groups, webhooksByGroup } = generateWebhookGroups(account.groups, account.seed);
    dataset = { groups: new Table(groups), webhooksByGroup, events: new Table(generateEvents(account.events, account.seed)) };
    cache.set(key, dataset);
  }
  return dataset;
}
