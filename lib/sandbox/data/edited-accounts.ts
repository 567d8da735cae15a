import type { Edit } from "../api/edit-schema";
import type { SandboxAccount } from "../core/config";
import { formatEmsTimestamp } from "../core/clock";
import { DatasetCopy } from "./dataset-copy";
import { datasetFor, type AccountDataset } from "./datasets";
import type { WriteContext } from "../api/writes";
import { applyEdit, EditRejected, type AppliedEdit } from "./edits";
import { randomEdit, randomEditStream } from "./random-edits";

/**
 * The data one sandbox serves for each of its accounts: the generated dataset, shared with every
 * account and sandbox of the same seed and size, until an account is edited; from then on that
 * account's own copy (data/dataset-copy.ts), so an edit never shows in another account.
 *
 * Every cache of the serving path is keyed by the dataset or by one of its tables (listing
 * answers, row JSON, search masks, presorted orders and name indexes, the webhooks table), and each
 * batch of edits produces a new dataset with new tables: nothing made from the old data can answer
 * for the new. Parsed queries depend on the query string alone and stay.
 */
export class EditedAccounts {
  private readonly copies = new Map<string, DatasetCopy>();
  private generatedWebhookIdCeiling: number | undefined;
  private generatedGroupIdCeiling: number | undefined;

  constructor(private readonly accounts: ReadonlyMap<string, SandboxAccount>) {}

  /** What the account's requests are answered from. */
  dataset(account: SandboxAccount): AccountDataset {
    return this.copies.get(account.key)?.dataset ?? datasetFor(account);
  }

  /** Keys of the accounts whose data has been edited since the start or the last reset. */
  edited(): string[] {
    return [...this.copies.keys()];
  }

  /** Applies the edits in order, all or none: a rejected edit (EditRejected) leaves the data as it was. */
  apply(accountKey: string, edits: readonly Edit[], nowMs: number): AppliedEdit[] {
    return this.editBatch(accountKey, nowMs, (draft, context) => edits.map((edit) => applyEdit(draft, edit, context)));
  }

  /** `count` edits chosen from `seed` (data/random-edits.ts), each from the data the previous one left. */
  applyRandom(accountKey: string, { count, seed }: { count: number; seed: number }, nowMs: number): AppliedEdit[] {
    return this.editBatch(accountKey, nowMs, (draft, context) => {
      const random = randomEditStream(seed);
      const applied: AppliedEdit[] = [];
      for (let n = 0; n < count; n++) {
        const edit = randomEdit(random, draft);
        if (!edit) throw new EditRejected(`The account "${accountKey}" has no webhook groups to edit.`);
        applied.push(applyEdit(draft, edit, context));
      }
      return applied;
    });
  }

  /**
   * Runs `change` (an API write, api/writes.ts) on a draft of the account's data: kept if it
   * returns, dropped if it throws, so a refused write leaves the data as it was.
   */
  commit<T>(accountKey: string, nowMs: number, change: (draft: DatasetCopy, context: WriteContext) => T): T {
    let result: T;
    this.editBatch(accountKey, nowMs, (draft, context) => {
      result = change(draft, context);
      return [];
    });
    return result!;
  }

  /** Back to the generated data for every account. */
  reset(): void {
    this.copies.clear();
  }

  private editBatch(accountKey: string, nowMs: number, edit: (draft: DatasetCopy, context: WriteContext) => AppliedEdit[]): AppliedEdit[] {
    const account = this.accounts.get(accountKey);
    if (!account) throw new EditRejected(`Unknown sandbox account "${accountKey}": use one of ${[...this.accounts.keys()].map((key) => `"${key}"`).join(", ")}.`);
    const current = this.copies.get(accountKey);
    const draft = current ? current.draft() : new DatasetCopy(datasetFor(account).rows);
    let lastId = this.highestWebhookId();
    let lastGroupId = this.highestGroupId();
    const applied = edit(draft, { now: formatEmsTimestamp(nowMs), newWebhookId: () => ++lastId, newGroupId: () => ++lastGroupId });
    this.copies.set(accountKey, draft);
    return applied;
  }

  /** The highest group id of any account: a new group takes the next one, never given twice until a reset. */
  private highestGroupId(): number {
    this.generatedGroupIdCeiling ??= Math.max(
      0,
      ...[...this.accounts.values()].map((account) => {
        const { ids } = datasetFor(account).rows;
        return ids.length ? ids[ids.length - 1] : 0;
      }),
    );
    return Math.max(this.generatedGroupIdCeiling, ...[...this.copies.values()].map((copy) => copy.highestAddedGroupId));
  }

  /**
   * The highest webhook id any account may hold: generated ids are `group id * 10 + 1..9`
   * (data/generate.ts), so below the next multiple of ten after the highest group id, which is
   * known without making any webhook; added ones are counted by their copies. A removed webhook's
   * id stays counted, so an id is never given twice (as a database's auto-increment would not).
   */
  private highestWebhookId(): number {
    this.generatedWebhookIdCeiling ??= Math.max(
      0,
      ...[...this.accounts.values()].map((account) => {
        const { ids } = datasetFor(account).rows;
        return ids.length ? (ids[ids.length - 1] + 1) * 10 : 0;
      }),
    );
    return Math.max(this.generatedWebhookIdCeiling, ...[...this.copies.values()].map((copy) => copy.highestAddedWebhookId));
  }
}
