import type { EmsEvent, Webhook, WebhookGroup } from "../api/resources";
import { datasetFrom, type AccountDataset, type DatasetRows } from "./datasets";
import { Table, tableSourceOf } from "./table";

/** Where a webhook sits: its group's row index, or null for a webhook in no group (docs/ems-api.md §8.1). */
export type GroupSlot = number | null;

/**
 * One account's own copy of its data, for edits (data/edits.ts) and API writes (api/writes.ts).
 * Copy-on-write over the rows it starts from: only the groups and webhook lists a change touched are
 * held here, by group id; the rest is read from the original rows, which may be shared with other
 * accounts and sandboxes of the same seed (data/datasets.ts) and are never changed. Groups may be
 * added (ids above every other, so ids keep ascending) and removed; webhooks may move between
 * groups or to none.
 *
 * A copy is frozen once its dataset is made (`dataset`): the tables and caches of that dataset
 * must keep seeing the data they were built from. Further changes go to `draft()`, a new copy, which
 * also makes a batch all-or-nothing (a rejected change leaves the served copy as it was).
 * Rows are replaced, never mutated, so the objects an earlier dataset holds stay as they were.
 */
export class DatasetCopy {
  private ids: Int32Array;
  private readonly names: string[];
  /** group id -> the group as changed */
  private readonly groups: Map<number, WebhookGroup>;
  /** group id -> its webhooks as changed */
  private readonly hookLists: Map<number, Webhook[]>;
  /** webhook id -> group id (null: no group) for webhooks added or moved (outside generate.ts's id scheme) */
  private readonly placed: Map<number, number | null>;
  private ungrouped: Webhook[];
  private highestGroupId: number;
  /** The events as changed (an event added or its status set in the web app); undefined: the original's. */
  private changedEvents: Table<EmsEvent> | undefined;
  private built: AccountDataset | undefined;

  constructor(
    readonly original: DatasetRows,
    from?: DatasetCopy,
  ) {
    this.ids = from ? from.ids : original.ids;
    this.names = from ? [...from.names] : [...original.names];
    this.groups = new Map(from?.groups);
    this.hookLists = new Map(from?.hookLists);
    this.placed = new Map(from?.placed);
    this.ungrouped = from ? from.ungrouped : [...(original.ungrouped ?? [])];
    this.highestGroupId = from ? from.highestGroupId : 0;
    this.changedEvents = from?.changedEvents;
  }

  /** A copy to edit next, starting from this one's data. */
  draft(): DatasetCopy {
    return new DatasetCopy(this.original, this);
  }

  /** The data as a dataset with tables of its own; after this, the copy no longer changes. */
  get dataset(): AccountDataset {
    if (!this.built) {
      const ungrouped = this.ungrouped;
      const rows: DatasetRows = {
        ids: this.ids,
        names: this.names,
        groupAt: (index) => this.groupAt(index),
        webhooksOf: (index) => this.webhooksOf(index),
        ungrouped,
        events: this.events,
        plan: this.original.plan,
      };
      this.built = datasetFrom(rows);
    }
    return this.built;
  }

  /** The account's events as they are now. */
  get events(): Table<EmsEvent> {
    return this.changedEvents ?? this.original.events;
  }

  /**
   * Adds an event (its id above every other, so ids keep ascending) or replaces the one with its id.
   * Events are few (hundreds to a few thousand), so the table is simply rebuilt from its rows.
   */
  saveEvent(event: EmsEvent): void {
    const current = this.events;
    const rows: EmsEvent[] = [];
    for (let index = 0; index < current.size; index++) rows.push(current.row(index));
    const at = current.indexOfId(event.id);
    if (at === undefined) rows.push(event);
    else rows[at] = event;
    this.changedEvents = new Table(tableSourceOf(rows));
  }

  get groupCount(): number {
    return this.ids.length;
  }

  groupAt(index: number): WebhookGroup {
    const id = this.ids[index];
    return this.groups.get(id) ?? this.original.groupAt(indexIn(this.original.ids, id)!);
  }

  /** The webhooks of the group at `slot` (null: the webhooks in no group). */
  webhooksOf(slot: GroupSlot): Webhook[] {
    if (slot === null) return this.ungrouped;
    const id = this.ids[slot];
    return this.hookLists.get(id) ?? this.original.webhooksOf(indexIn(this.original.ids, id)!);
  }

  /** Row index of a group id (ids ascend), or undefined. */
  groupIndexOf(groupId: number): number | undefined {
    return indexIn(this.ids, groupId);
  }

  /**
   * Where a webhook is: its group's index (null: no group) and its position there. Generated
   * webhooks have the id `group id * 10 + position` (data/generate.ts), so their group is found
   * without making every group's webhooks; added and moved ones are remembered.
   */
  locateWebhook(webhookId: number): { groupIndex: GroupSlot; position: number; webhook: Webhook } | undefined {
    const groupId = this.placed.has(webhookId) ? this.placed.get(webhookId)! : Math.floor(webhookId / 10);
    const groupIndex = groupId === null ? null : this.groupIndexOf(groupId);
    if (groupIndex === undefined) return undefined;
    const list = this.webhooksOf(groupIndex);
    const position = list.findIndex((webhook) => webhook.id === webhookId);
    return position < 0 ? undefined : { groupIndex, position, webhook: list[position] };
  }

  /** The largest id of a webhook added to this copy (0 when none): new ids must stay above it. */
  get highestAddedWebhookId(): number {
    let highest = 0;
    for (const id of this.placed.keys()) highest = Math.max(highest, id);
    return highest;
  }

  /** The largest id of a group added to this copy (0 when none). */
  get highestAddedGroupId(): number {
    return this.highestGroupId;
  }

  replaceGroup(index: number, group: WebhookGroup): void {
    this.assertOpen();
    this.groups.set(this.ids[index], group);
    // Search and sort read names from this column, the row from groupAt: both must agree.
    this.names[index] = group.name;
  }

  replaceWebhooks(slot: GroupSlot, webhooks: Webhook[]): void {
    this.assertOpen();
    if (slot === null) this.ungrouped = webhooks;
    else this.hookLists.set(this.ids[slot], webhooks);
  }

  addWebhook(slot: GroupSlot, webhook: Webhook): void {
    this.replaceWebhooks(slot, [...this.webhooksOf(slot), webhook]);
    this.placed.set(webhook.id, slot === null ? null : this.ids[slot]);
  }

  /** Takes the webhook out of its place and puts `webhook` (its changed row) at the end of `to`'s list. */
  moveWebhook(from: { groupIndex: GroupSlot; webhook: Webhook }, to: GroupSlot, webhook: Webhook): void {
    this.replaceWebhooks(
      from.groupIndex,
      this.webhooksOf(from.groupIndex).filter((other) => other.id !== from.webhook.id),
    );
    this.addWebhook(to, webhook);
  }

  /** Adds a group with an id above every group id (so ids keep ascending) and no webhooks. */
  addGroup(group: WebhookGroup): number {
    this.assertOpen();
    const last = this.ids.length ? this.ids[this.ids.length - 1] : 0;
    if (group.id <= last) throw new Error(`A new group's id must be above ${last}.`);
    const ids = new Int32Array(this.ids.length + 1);
    ids.set(this.ids);
    ids[this.ids.length] = group.id;
    this.ids = ids;
    this.names.push(group.name);
    this.groups.set(group.id, group);
    this.hookLists.set(group.id, []);
    this.highestGroupId = Math.max(this.highestGroupId, group.id);
    return this.ids.length - 1;
  }

  /** Removes the group at `index` (the caller has checked it holds no webhook). */
  removeGroup(index: number): void {
    this.assertOpen();
    const id = this.ids[index];
    const ids = new Int32Array(this.ids.length - 1);
    ids.set(this.ids.subarray(0, index));
    ids.set(this.ids.subarray(index + 1), index);
    this.ids = ids;
    this.names.splice(index, 1);
    this.groups.delete(id);
    this.hookLists.delete(id);
  }

  private assertOpen(): void {
    if (this.built) throw new Error("This copy already serves a dataset; edit a draft() of it.");
  }
}

/** Row index of `id` in ascending `ids`, or undefined. */
function indexIn(ids: Int32Array, id: number): number | undefined {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ids[middle] === id) return middle;
    if (ids[middle] < id) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
