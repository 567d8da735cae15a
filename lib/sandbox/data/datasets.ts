import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import type { SandboxAccount } from "../core/config";
import type { FaultPlan } from "./faults";
import { generateEvents, generateWebhookGroups } from "./generate";
import { Table, tableSourceOf } from "./table";

/**
 * What a dataset is made from: the generated rows of an account, or an edited copy of them
 * (data/dataset-copy.ts). Group ids ascend; the other fields of a group and its webhooks are read
 * through functions, so 100,000 groups need not exist as objects.
 */
export type DatasetRows = {
  ids: Int32Array;
  names: readonly string[];
  groupAt: (index: number) => WebhookGroup;
  webhooksOf: (index: number) => Webhook[];
  /** webhooks in no group (docs/ems-api.md §8.1): only ever made by API writes */
  ungrouped?: readonly Webhook[];
  events: Table<EmsEvent>;
  plan: FaultPlan;
};

export type AccountDataset = {
  /** what the tables below read; an edited copy starts from these */
  rows: DatasetRows;
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
 * Every webhook of the account, ascending by id. Generated ids are `group id * 10 + position`, so
 * concatenating the groups keeps id order; a webhook added by an edit takes an id above all of
 * them, so only then is a sort needed.
 */
function webhooksInIdOrder(rows: DatasetRows): Webhook[] {
  const all = Array.from({ length: rows.ids.length }, (_, index) => rows.webhooksOf(index)).flat();
  if (rows.ungrouped?.length) all.push(...rows.ungrouped);
  for (let i = 1; i < all.length; i++) {
    if (all[i - 1].id > all[i].id) return all.sort((a, b) => a.id - b.id);
  }
  return all;
}

/**
 * A dataset over `rows`. Its tables, and every cache keyed by them or by the dataset (search masks,
 * row JSON, listing answers, name indexes), belong to this object alone: data that changes gets a
 * new dataset rather than an update of this one (data/edited-accounts.ts).
 */
export function datasetFrom(rows: DatasetRows): AccountDataset {
  const groups = new Table<WebhookGroup>({
    size: rows.ids.length,
    value: (index, field) => (field === "id" ? rows.ids[index] : field === "name" ? rows.names[index] : null),
    row: rows.groupAt,
  });
  let webhooks: Table<Webhook> | undefined;
  return {
    rows,
    groups,
    webhooksOf: rows.webhooksOf,
    get webhooks() {
      return (webhooks ??= new Table(tableSourceOf(webhooksInIdOrder(rows))));
    },
    events: rows.events,
    plan: rows.plan,
  };
}

/**
 * Generated data is cached per (size, seed) for the whole process: many sandbox instances (one per
 * test file) share one copy, and the 100,000-group benchmark dataset is built once. So these
 * datasets are never changed: an edited account gets its own copy (data/edited-accounts.ts).
 */
const cache = new Map<string, AccountDataset>();

export function datasetFor(account: Pick<SandboxAccount, "groups" | "events" | "seed">): AccountDataset {
  const key = `${account.seed}:${account.groups}:${account.events}`;
  let dataset = cache.get(key);
  if (!dataset) {
    const events = generateEvents(account.events, account.seed);
    const generated = generateWebhookGroups(account.groups, account.seed, events);
    dataset = datasetFrom({ ...generated, events: new Table(tableSourceOf(events)) });
    cache.set(key, dataset);
  }
  return dataset;
}
