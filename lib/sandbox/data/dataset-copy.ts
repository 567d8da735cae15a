import type { Webhook, WebhookGroup } from "../api/resources";
import { datasetFrom, type AccountDataset, type DatasetRows } from "./datasets";

/**
 * One account's own copy of its data, for edits (data/edits.ts). Copy-on-write over the rows it
 * starts from: only the groups and webhook lists an edit touched are held here; the rest is read
 * from the original rows, which may be shared with other accounts and sandboxes of the same seed
 * (data/datasets.ts) and are never changed.
 *
 * A copy is frozen once its dataset is made (`dataset`): the tables and caches of that dataset
 * must keep seeing the data they were built from. Further edits go to `draft()`, a new copy, which
 * also makes a batch of edits all-or-nothing (a rejected edit leaves the served copy as it was).
 * Rows are replaced, never mutated, so the objects an earlier dataset holds stay as they were.
 */
export class DatasetCopy {
  private readonly names: string[];
  private readonly groups: Map<number, WebhookGroup>;
  private readonly hookLists: Map<number, Webhook[]>;
  /** webhook id -> group index, for webhooks added by edits (their ids fall outside generate.ts's scheme) */
  private readonly addedWebhooks: Map<number, number>;
  private built: AccountDataset | undefined;

  constructor(
    readonly original: DatasetRows,
    from?: DatasetCopy,
  ) {
    this.names = from ? [...from.names] : [...original.names];
    this.groups = new Map(from?.groups);
    this.hookLists = new Map(from?.hookLists);
    this.addedWebhooks = new Map(from?.addedWebhooks);
  }

  /** A copy to edit next, starting from this one's data. */
  draft(): DatasetCopy {
    return new DatasetCopy(this.original, this);
  }

  /** The data as a dataset with tables of its own; after this, the copy no longer changes. */
  get dataset(): AccountDataset {
    if (!this.built) {
      const rows: DatasetRows = {
        ids: this.original.ids,
        names: this.names,
        groupAt: (index) => this.groupAt(index),
        webhooksOf: (index) => this.webhooksOf(index),
        events: this.original.events,
        plan: this.original.plan,
      };
      this.built = datasetFrom(rows);
    }
    return this.built;
  }

  get groupCount(): number {
    return this.original.ids.length;
  }

  groupAt(index: number): WebhookGroup {
    return this.groups.get(index) ?? this.original.groupAt(index);
  }

  webhooksOf(index: number): Webhook[] {
    return this.hookLists.get(index) ?? this.original.webhooksOf(index);
  }

  /** Row index of a group id (ids ascend), or undefined. */
  groupIndexOf(groupId: number): number | undefined {
    const ids = this.original.ids;
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (ids[middle] === groupId) return middle;
      if (ids[middle] < groupId) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /**
   * Where a webhook is: its group's index and its position there. Generated webhooks have the id
   * `group id * 10 + position` (data/generate.ts), so their group is found without making every
   * group's webhooks; added ones are remembered.
   */
  locateWebhook(webhookId: number): { groupIndex: number; position: number; webhook: Webhook } | undefined {
    const groupIndex = this.addedWebhooks.get(webhookId) ?? this.groupIndexOf(Math.floor(webhookId / 10));
    if (groupIndex === undefined) return undefined;
    const position = this.webhooksOf(groupIndex).findIndex((webhook) => webhook.id === webhookId);
    return position < 0 ? undefined : { groupIndex, position, webhook: this.webhooksOf(groupIndex)[position] };
  }

  /** The largest id of a webhook added to this copy (0 when none): new ids must stay above it. */
  get highestAddedWebhookId(): number {
    let highest = 0;
    for (const id of this.addedWebhooks.keys()) highest = Math.max(highest, id);
    return highest;
  }

  replaceGroup(index: number, group: WebhookGroup): void {
    this.assertOpen();
    this.groups.set(index, group);
    // Search and sort read names from this column, the row from groupAt: both must agree.
    this.names[index] = group.name;
  }

  replaceWebhooks(index: number, webhooks: Webhook[]): void {
    this.assertOpen();
    this.hookLists.set(index, webhooks);
  }

  addWebhook(index: number, webhook: Webhook): void {
    this.replaceWebhooks(index, [...this.webhooksOf(index), webhook]);
    this.addedWebhooks.set(webhook.id, index);
  }

  private assertOpen(): void {
    if (this.built) throw new Error("This copy already serves a dataset; edit a draft() of it.");
  }
}
