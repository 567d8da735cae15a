import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import type { SandboxAccount } from "../core/config";
import { generateEvents, generateWebhookGroups } from "./generate";
import { Table, tableSourceOf } from "./table";

export type AccountDataset = {
  groups: Table<WebhookGroup>;
  /** webhooks of the group at a row index (made on first use) */
  webhooksOf: (index: number) => Webhook[];
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
    const generated = generateWebhookGroups(account.groups, account.seed);
    const groups = new Table<WebhookGroup>({
      size: generated.ids.length,
      value: (index, field) => (field === "id" ? generated.ids[index] : field === "name" ? generated.names[index] : null),
      row: generated.groupAt,
    });
    dataset = { groups, webhooksOf: generated.webhooksOf, events: new Table(tableSourceOf(generateEvents(account.events, account.seed))) };
    cache.set(key, dataset);
  }
  return dataset;
}
