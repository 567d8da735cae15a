import "server-only";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { prisma, type TransactionClient } from "@/lib/db/prisma";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordsToCompare, type KnownRecord, type RecordChange, type SetupDiff, type StoredRecord } from "./diff";
import { recordKey, type FieldValue, type RecordKind, type RecordSecrets, type RecordState, type SnapshotRecord } from "./records";

/**
 * Where change history lives in the database (models TrackedRecord, SetupChange, SetupCheckpoint):
 * the last known state of every record, the changes, and now and then the whole state.
 *
 * Secrets (header values) are encrypted with the key ring, each ciphertext bound to its row, and
 * never leave this module but through `decryptedSecrets` (nothing shows them today: pages show
 * header values masked, and alerts never carry them).
 */

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A checkpoint is taken on the first sync and then when the newest is older than this. */
export const CHECKPOINT_EVERY_MS = 24 * 60 * 60_000;
/** Rows written per statement. */
const BATCH = 1_000;

export const recordAad = (trackerId: string, kind: RecordKind, id: number) => secretAad("TrackedRecord", `${trackerId}:${kind}:${id}`, "secrets");
export const changeAad = (changeId: string) => secretAad("SetupChange", changeId, "secrets");
export const checkpointAad = (checkpointId: string) => secretAad("SetupCheckpoint", checkpointId, "state");

function encryptJson(value: unknown, aad: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "object" && Object.keys(value).length === 0) return null;
  return encryptSecret(JSON.stringify(value), aad);
}

/** Every stored record of a tracker, digest only: what the next diff starts from. */
async function loadKnownDigests(trackerId: string): Promise<Map<string, KnownRecord>> {
  const rows = await prisma.trackedRecord.findMany({
    where: { trackerId },
    select: { kind: true, recordId: true, groupId: true, name: true, digest: true },
  });
  return new Map(
    rows.map((row) => [
      recordKey(row.kind as RecordKind, row.recordId),
      { kind: row.kind as RecordKind, id: row.recordId, groupId: row.groupId, name: row.name, digest: row.digest },
    ]),
  );
}

/** Fills in state and secrets of the named records (changed or gone): the only ones the diff reads. */
async function loadStates(trackerId: string, known: Map<string, KnownRecord>, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += BATCH) {
    const slice = keys.slice(start, start + BATCH).map((key) => known.get(key)!);
    const rows = await prisma.trackedRecord.findMany({
      where: { trackerId, OR: RECORD_KINDS_OF(slice).map(([kind, ids]) => ({ kind, recordId: { in: ids } })) },
      select: { kind: true, recordId: true, state: true, secretCiphertext: true },
    });
    for (const row of rows) {
      const record = known.get(recordKey(row.kind as RecordKind, row.recordId))!;
      record.state = row.state as RecordState;
      record.secrets = row.secretCiphertext ? (JSON.parse(decryptSecret(row.secretCiphertext, recordAad(trackerId, record.kind, record.id))) as RecordSecrets) : {};
    }
  }
}

function RECORD_KINDS_OF(records: readonly KnownRecord[]): [RecordKind, number[]][] {
  const byKind = new Map<RecordKind, number[]>();
  for (const record of records) byKind.set(record.kind, [...(byKind.get(record.kind) ?? []), record.id]);
  return [...byKind];
}

/**
 * What `diffSetup` needs for this snapshot: every stored digest, and the full state of the records
 * whose digest differs or that are gone.
 */
export async function loadKnownFor(trackerId: string, current: readonly SnapshotRecord[]): Promise<Map<string, KnownRecord>> {
  const known = await loadKnownDigests(trackerId);
  const present = new Set(current.map((record) => recordKey(record.kind, record.id)));
  const gone = [...known.keys()].filter((key) => !present.has(key));
  await loadStates(trackerId, known, [...recordsToCompare(known, current), ...gone]);
  return known;
}

export interface SyncWrite {
  trackerId: string;
  teamId: string;
  syncId: string;
  seenAt: Date;
  diff: SetupDiff;
  /** Group names by id, for the feed's sentences ("in group Finance ledger"). */
  groupNames: ReadonlyMap<number, string | null>;
}

/** A date the EMS sent ("2026-11-20 14:02:11", ISO, …), or null when it does not read as one. */
function emsDate(value: string | null): Date | null {
  if (!value) return null;
  const parsed = new Date(/^\d{4}-\d{2}-\d{2} \d/.test(value) ? `${value.replace(" ", "T")}Z` : value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function json(value: FieldValue | RecordState | null): Prisma.InputJsonValue | undefined {
  return value === null ? undefined : (value as Prisma.InputJsonValue);
}

/**
 * Writes one sync's diff in the caller's transaction: the changes, the records' new state, the
 * records gone. Returns the bytes written (what the bench and the sync record report).
 */
export async function writeDiff(tx: TransactionClient, write: SyncWrite): Promise<number> {
  const { trackerId, teamId, syncId, seenAt, diff, groupNames } = write;
  let bytes = 0;
  const changeRows = diff.changes.map((change: RecordChange) => {
    const id = randomUUID();
    const secretCiphertext = change.secrets ? encryptJson(change.secrets, changeAad(id)) : null;
    const row = {
      id,
      trackerId,
      teamId,
      syncId,
      kind: change.kind,
      recordId: change.recordId,
      groupId: change.groupId,
      recordName: change.recordName,
      groupName: change.groupId === null ? null : (groupNames.get(change.groupId) ?? null),
      change: change.change,
      field: change.field,
      before: json(change.before),
      after: json(change.after),
      secretCiphertext,
      changedBy: change.changedBy,
      changedAt: emsDate(change.changedAt),
      seenAt,
    };
    bytes += JSON.stringify(row).length;
    return row;
  });
  for (let start = 0; start < changeRows.length; start += BATCH) {
    await tx.setupChange.createMany({ data: changeRows.slice(start, start + BATCH) });
  }

  const replaced = [...diff.upserts.map((record) => ({ kind: record.kind, id: record.id })), ...diff.removed];
  for (const [kind, ids] of idsByKind(replaced)) {
    for (let start = 0; start < ids.length; start += BATCH) {
      await tx.trackedRecord.deleteMany({ where: { trackerId, kind, recordId: { in: ids.slice(start, start + BATCH) } } });
    }
  }
  const recordRows = diff.upserts.map((record: StoredRecord) => {
    const row = {
      trackerId,
      kind: record.kind,
      recordId: record.id,
      groupId: record.groupId,
      name: record.name,
      digest: record.digest,
      state: record.state as Prisma.InputJsonValue,
      secretCiphertext: encryptJson(record.secrets, recordAad(trackerId, record.kind, record.id)),
    };
    bytes += JSON.stringify(row).length;
    return row;
  });
  for (let start = 0; start < recordRows.length; start += BATCH) {
    await tx.trackedRecord.createMany({ data: recordRows.slice(start, start + BATCH) });
  }
  return bytes;
}

function idsByKind(records: readonly { kind: RecordKind; id: number }[]): [RecordKind, number[]][] {
  const byKind = new Map<RecordKind, number[]>();
  for (const record of records) {
    const ids = byKind.get(record.kind) ?? [];
    ids.push(record.id);
    byKind.set(record.kind, ids);
  }
  return [...byKind];
}

/** A record in a checkpoint or rebuilt "as of" a date: masked state, secrets beside it. */
export interface PastRecord {
  kind: RecordKind;
  id: number;
  groupId: number | null;
  name: string | null;
  state: RecordState;
}

/** Whether this sync should also write a checkpoint (none yet, or the newest is a day old). */
export async function checkpointDue(trackerId: string, now: Date): Promise<boolean> {
  const newest = await prisma.setupCheckpoint.findFirst({ where: { trackerId }, orderBy: { takenAt: "desc" }, select: { takenAt: true } });
  return !newest || now.getTime() - newest.takenAt.getTime() >= CHECKPOINT_EVERY_MS;
}

/**
 * The whole state after a sync, gzipped and encrypted (secrets included, so a past state can be
 * rebuilt in full). Returns the bytes stored.
 */
export async function writeCheckpoint(tx: TransactionClient, trackerId: string, takenAt: Date, records: readonly SnapshotRecordLike[]): Promise<number> {
  const id = randomUUID();
  const packed = (await gzipAsync(JSON.stringify(records))).toString("base64");
  const ciphertext = encryptSecret(packed, checkpointAad(id));
  await tx.setupCheckpoint.create({ data: { id, trackerId, takenAt, recordCount: records.length, ciphertext } });
  return ciphertext.length;
}

export type SnapshotRecordLike = PastRecord & { secrets: RecordSecrets };

async function readCheckpoint(id: string, ciphertext: string): Promise<SnapshotRecordLike[]> {
  const packed = decryptSecret(ciphertext, checkpointAad(id));
  return JSON.parse((await gunzipAsync(Buffer.from(packed, "base64"))).toString("utf8")) as SnapshotRecordLike[];
}

export type PastState = { kind: "ok"; takenFrom: Date; records: Map<string, PastRecord> } | { kind: "before-history"; firstSync: Date | null };

/**
 * A past record with its header values: `secrets.headers` is absent when the values at that time
 * are not known (a header change recorded without them), which undo must then leave as they are.
 */
export type PastRecordWithSecrets = PastRecord & { secrets: RecordSecrets };
export type PastStateWithSecrets = { kind: "ok"; takenFrom: Date; records: Map<string, PastRecordWithSecrets> } | { kind: "before-history"; firstSync: Date | null };

type ChangeSecrets = { before: [string, string][] | null; after: [string, string][] | null };

/**
 * The account as it was at `at`: the newest checkpoint at or before it, with every change seen
 * after the checkpoint and up to `at` applied in order. "before-history" when tracking started later.
 * Masked: header values stay in the store (pages show names only).
 */
export async function stateAsOf(trackerId: string, at: Date): Promise<PastState> {
  const past = await rebuild(trackerId, at, false);
  if (past.kind !== "ok") return past;
  for (const record of past.records.values()) delete (record as Partial<PastRecordWithSecrets>).secrets;
  return past;
}

/**
 * `stateAsOf` with the header values as they were: what putting a group back as it was sends
 * (lib/plans/undo-as-of.ts, the only caller). Never rendered.
 */
export async function stateWithSecretsAsOf(trackerId: string, at: Date): Promise<PastStateWithSecrets> {
  return rebuild(trackerId, at, true);
}

async function rebuild(trackerId: string, at: Date, withSecrets: boolean): Promise<PastStateWithSecrets> {
  const checkpoint = await prisma.setupCheckpoint.findFirst({ where: { trackerId, takenAt: { lte: at } }, orderBy: { takenAt: "desc" } });
  if (!checkpoint) {
    const first = await prisma.setupCheckpoint.findFirst({ where: { trackerId }, orderBy: { takenAt: "asc" }, select: { takenAt: true } });
    return { kind: "before-history", firstSync: first?.takenAt ?? null };
  }
  const records = new Map<string, PastRecordWithSecrets>();
  for (const record of await readCheckpoint(checkpoint.id, checkpoint.ciphertext)) {
    records.set(recordKey(record.kind, record.id), {
      kind: record.kind,
      id: record.id,
      groupId: record.groupId,
      name: record.name,
      state: record.state,
      secrets: withSecrets ? (record.secrets ?? {}) : {},
    });
  }
  const changes = await prisma.setupChange.findMany({
    where: { trackerId, seenAt: { gt: checkpoint.takenAt, lte: at } },
    orderBy: [{ seenAt: "asc" }, { id: "asc" }],
    select: { id: true, kind: true, recordId: true, groupId: true, recordName: true, change: true, field: true, after: true, secretCiphertext: withSecrets },
  });
  const secretsOf = (change: { id: string; secretCiphertext?: string | null }): ChangeSecrets | null =>
    withSecrets && change.secretCiphertext ? (JSON.parse(decryptSecret(change.secretCiphertext, changeAad(change.id))) as ChangeSecrets) : null;
  for (const change of changes) {
    const key = recordKey(change.kind as RecordKind, change.recordId);
    if (change.change === "removed") {
      records.delete(key);
    } else if (change.change === "added") {
      const after = secretsOf(change)?.after;
      records.set(key, {
        kind: change.kind as RecordKind,
        id: change.recordId,
        groupId: change.groupId,
        name: change.recordName,
        state: (change.after ?? {}) as RecordState,
        // No recorded values for an added record: it had no headers (lib/history/diff.ts).
        secrets: after ? { headers: after } : {},
      });
    } else if (change.field) {
      const record = records.get(key);
      if (!record) continue;
      record.state = { ...record.state, [change.field]: (change.after ?? null) as FieldValue };
      record.groupId = change.groupId;
      if (change.field === "name") record.name = typeof change.after === "string" ? change.after : record.name;
      if (withSecrets && change.field === "headers") {
        const after = secretsOf(change)?.after;
        const { headers: _old, ...rest } = record.secrets;
        void _old;
        record.secrets = after ? { ...rest, headers: after } : rest;
      }
    }
  }
  return { kind: "ok", takenFrom: checkpoint.takenAt, records };
}
