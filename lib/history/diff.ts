import { createHash } from "node:crypto";
import { recordKey, stableJson, type FieldValue, type RecordKind, type RecordSecrets, type RecordState, type SnapshotRecord } from "./records";

/**
 * What changed between the last known state of an account and a new snapshot: one entry per record
 * added or removed, and one per field changed. Pure.
 *
 * A field the new snapshot does not have keeps its last known value (unknown is not "removed"), so
 * the state a record is stored with is the old one overlaid with the new (`merged`).
 */

export interface KnownRecord {
  kind: RecordKind;
  id: number;
  groupId: number | null;
  name: string | null;
  digest: string;
  /** Loaded only for records whose digest differs (lib/history/store.ts); the diff asks for it. */
  state?: RecordState;
  secrets?: RecordSecrets;
}

export type ChangeKind = "added" | "removed" | "changed";

export interface RecordChange {
  kind: RecordKind;
  recordId: number;
  groupId: number | null;
  recordName: string | null;
  change: ChangeKind;
  /** The field, for "changed". */
  field: string | null;
  /** The whole state for added / removed; the field's value for changed (masked for headers). */
  before: FieldValue | RecordState | null;
  after: FieldValue | RecordState | null;
  /** Header values before and after, for the store to encrypt; null when no secret is involved. */
  secrets: { before: [string, string][] | null; after: [string, string][] | null } | null;
  /** The EMS's own who and when for this edit, when it says (a webhook's updated_by / updated_at). */
  changedBy: string | null;
  changedAt: string | null;
}

/** A record as it is to be stored after this sync (new, or changed). */
export interface StoredRecord {
  kind: RecordKind;
  id: number;
  groupId: number | null;
  name: string | null;
  digest: string;
  state: RecordState;
  secrets: RecordSecrets;
}

export interface SetupDiff {
  changes: RecordChange[];
  /** Records to write (added, or whose stored state changed). */
  upserts: StoredRecord[];
  /** Records that are gone. */
  removed: { kind: RecordKind; id: number }[];
}

export function stateDigest(state: RecordState): string {
  return createHash("sha256").update(stableJson(state)).digest("hex");
}

/** The records whose stored digest differs from the new state's: only their old state need be read. */
export function recordsToCompare(known: ReadonlyMap<string, KnownRecord>, current: readonly SnapshotRecord[]): string[] {
  const keys: string[] = [];
  for (const record of current) {
    const key = recordKey(record.kind, record.id);
    const previous = known.get(key);
    if (previous && previous.digest !== stateDigest(record.state)) keys.push(key);
  }
  return keys;
}

const SECRET_FIELDS = new Set(["headers"]);

/**
 * The diff. `known` holds every stored record (digest at least; the full state for the keys
 * recordsToCompare named). Records in `current` whose digest equals the stored one are unchanged.
 */
export function diffSetup(known: ReadonlyMap<string, KnownRecord>, current: readonly SnapshotRecord[]): SetupDiff {
  const changes: RecordChange[] = [];
  const upserts: StoredRecord[] = [];
  const seen = new Set<string>();
  for (const record of current) {
    const key = recordKey(record.kind, record.id);
    seen.add(key);
    const previous = known.get(key);
    const digest = stateDigest(record.state);
    const who = { changedBy: record.updatedBy, changedAt: record.updatedAt };
    if (!previous) {
      changes.push({
        kind: record.kind,
        recordId: record.id,
        groupId: record.groupId,
        recordName: record.name,
        change: "added",
        field: null,
        before: null,
        after: record.state,
        secrets: secretsOf(null, record.secrets),
        ...who,
      });
      upserts.push({ kind: record.kind, id: record.id, groupId: record.groupId, name: record.name, digest, state: record.state, secrets: record.secrets });
      continue;
    }
    if (previous.digest === digest) continue;
    if (!previous.state) throw new Error(`the stored state of ${key} was not loaded`);
    const merged: RecordState = { ...previous.state, ...record.state };
    const mergedSecrets: RecordSecrets = { ...previous.secrets, ...record.secrets };
    let changed = false;
    for (const field of Object.keys(record.state).sort()) {
      const before = previous.state[field];
      const after = record.state[field];
      if (before !== undefined && stableJson(before) === stableJson(after)) continue;
      changed = true;
      const secrets = SECRET_FIELDS.has(field) ? { before: previous.secrets?.[field] ?? null, after: record.secrets[field] ?? null } : null;
      changes.push({
        kind: record.kind,
        recordId: record.id,
        groupId: record.groupId,
        recordName: record.name ?? previous.name,
        change: "changed",
        field,
        before: before ?? null,
        after,
        secrets,
        ...who,
      });
    }
    const mergedDigest = stateDigest(merged);
    // Unchanged fields but a new digest: the stored state lacked nothing and gained nothing, yet
    // the snapshot left a field out. Write the merged state only when it differs from the stored one.
    if (changed || mergedDigest !== previous.digest) {
      upserts.push({
        kind: record.kind,
        id: record.id,
        groupId: record.groupId,
        name: record.name ?? previous.name,
        digest: mergedDigest,
        state: merged,
        secrets: mergedSecrets,
      });
    }
  }
  const removed: { kind: RecordKind; id: number }[] = [];
  for (const [key, previous] of known) {
    if (seen.has(key)) continue;
    removed.push({ kind: previous.kind, id: previous.id });
    changes.push({
      kind: previous.kind,
      recordId: previous.id,
      groupId: previous.groupId,
      recordName: previous.name,
      change: "removed",
      field: null,
      before: previous.state ?? null,
      after: null,
      secrets: previous.secrets ? secretsOf(previous.secrets, null) : null,
      changedBy: null,
      changedAt: null,
    });
  }
  return { changes, upserts, removed };
}

function secretsOf(before: RecordSecrets | null, after: RecordSecrets | null): RecordChange["secrets"] {
  const b = before?.headers ?? null;
  const a = after?.headers ?? null;
  return b || a ? { before: b, after: a } : null;
}
