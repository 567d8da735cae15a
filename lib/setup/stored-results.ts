import "server-only";
import type { Actor } from "@/lib/access/actor";
import { decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import { prisma } from "@/lib/db/prisma";
import { answerCache, currentRateLimit, emsConfig, type EmsClient, type LookedAnswer, type RateLimit, type SharedListOptions } from "@/lib/ems";
import { loadShared, type Freshness, type ListingFailure, type RateBudget } from "@/lib/ems-access/shared-read";
import { log } from "@/lib/log";
import { readSetup, setupPageHashes, setupVersion, type SetupSnapshot, type SetupVersion } from "./load";
import { planApplyingToOwnAccount } from "./plan-applying";
import { forgetSharedResults, sharedResult } from "./shared-results";

/**
 * What Health and Coverage compute from a team's setup, stored per setup in the database
 * (`SetupResult`) and kept in this process, so that a view needs neither the setup nor the work.
 *
 * Why: a process that has not opened the setup's shared answers (after a restart, a deploy, on
 * another instance) read all of a 5,000-group account's 35 stored answers (23 MB of ciphertext),
 * decrypted and parsed them, and ran the checks or the grid on code not warmed up yet: about a
 * second before its first Health or Coverage view, and 50 MB of heap held for a page that shows 50
 * rows. The result is a few hundred kB to a megabyte.
 *
 * Never stale: a result is stored with the version of the setup it was computed from
 * (`SetupVersion`: how many pages of groups and of events, and the summary of each page's stored
 * ciphertext, whose 96-bit IV is drawn anew at each encryption), and served only while every one of
 * those pages is still the same stored answer and one `list` would serve as it is (within the
 * sharing window). A page asked of the API again, refreshed, dropped by a write or by a credential's
 * change has a new summary or none: the setup is read and the result computed and stored again.
 * What else a result depends on (the UTC day, the required triggers, Coverage's scope) is its
 * `optionsKey`, one row each.
 *
 * While a plan is being applied to the account (`planApplyingToOwnAccount`), the last result is
 * served as it is, marked `updating`, whatever the plan has written since: each write changes a page
 * of the setup, and recomputing the result from the whole setup after each one (every viewer's view,
 * a second apart) was the heap's peak under `npm run bench:memory` (about 0.7 s of allocation each)
 * for a result that the next write made old again. The first view after the plan stops finds the
 * setup changed and computes it once (one flight per team, credential, kind and options).
 *
 * The row is encrypted and bound to its key (it names groups, webhooks and events, as the answers
 * do); it goes with the credential's answers (`dropSharedAnswers`, `dropCredentialState`) and under
 * an old key at rotation (`dropAnswersUnderOldKeys`); rows older than an hour go when their kind is
 * stored again.
 */

export type StoredResultKind = "health" | "coverage";

/** What a page shows of the setup it was built on, without the setup (components/setup/setup-freshness.tsx). */
export interface SetupFacts {
  fingerprint: string;
  /** One listing call per page of groups and of events: what a refresh costs. */
  refreshCalls: number;
  partial: boolean;
  groups: number;
  webhooks: number;
  events: number;
}

export function setupFacts(snapshot: SetupSnapshot): SetupFacts {
  const { groups, events } = snapshot.data;
  return {
    fingerprint: snapshot.fingerprint,
    refreshCalls: snapshot.refreshCalls,
    partial: snapshot.partial,
    groups: groups.length,
    webhooks: groups.reduce((sum, group) => sum + (group.webhooks?.length ?? 0), 0),
    events: events.length,
  };
}

export interface StoredResultSpec<T> {
  kind: StoredResultKind;
  /**
   * The shape of the result: a number raised whenever it changes, so that a deploy never reads a
   * result stored by the code before it (that row is another row, and is computed anew).
   */
  format: number;
  /** What else the result depends on besides the setup: the UTC day, the options. */
  optionsKey: string;
  /** The result, from the whole setup: JSON-safe (it is stored as JSON), and never changed by its readers. */
  compute(snapshot: SetupSnapshot): T;
}

/** A result shown while a plan is being applied to the account: as it was at `asOf`, worked out again once the plan stops. */
export interface SetupUpdating {
  asOf: Date;
}

export type SetupResultOutcome<T> =
  | {
      kind: "ok";
      value: T;
      setup: SetupFacts;
      budget: RateBudget | null;
      freshness: Freshness;
      source: "stored" | "computed";
      /** Not null while a plan is being applied to the account: the page says the figures are being updated. */
      updating: SetupUpdating | null;
    }
  | ListingFailure;

interface StoredValue<T> {
  value: T;
  setup: SetupFacts;
  rateLimit: { limit: number; remaining: number; resetAt: string } | null;
}

interface Kept {
  version: SetupVersion;
  stored: StoredValue<unknown>;
  /** When the result was computed (the row's storedAt). */
  storedAt: Date;
}

/**
 * Results this process read or computed, by team, credential, kind and options: the next view
 * compares the pages' summaries (one statement) and reads no result. At most MAX_KEPT (a result is
 * up to about 3 MB of heap: 2.8 MB for the Health findings of a 5,000-group account), least recently
 * used first out. Two teams' identical results are one object (lib/setup/shared-results.ts).
 */
const kept = new Map<string, Kept>();
const MAX_KEPT = 16;

function keep(key: string, entry: Kept): void {
  kept.delete(key);
  kept.set(key, entry);
  while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** For tests: a process that has kept (and so shares) no result. */
export function forgetKeptResults(): void {
  kept.clear();
  forgetSharedResults();
}

export function setupResultAad(teamId: string, fingerprint: string, kind: string, optionsKey: string): string {
  return secretAad("SetupResult", `${teamId}:${fingerprint}:${kind}:${optionsKey}`, "ciphertext");
}

/** The row's options: the result's format first. */
function optionsKeyOf(spec: Pick<StoredResultSpec<unknown>, "format" | "optionsKey">): string {
  return `f${spec.format}\n${spec.optionsKey}`;
}

/** Stored rows older than this are deleted when their kind is stored again: their answers are gone (answer-cache's hour). */
const RESULT_LIFETIME_MS = 60 * 60_000;

/**
 * The result of `spec` for the setup behind this person's own credential: stored (or kept here) for
 * the setup as it is stored now, else the setup read as `loadSetup` reads it, the result computed
 * and stored. Never throws for the API's sake: a failure is a state the page shows.
 */
export async function loadSetupResult<T>(actor: Actor, spec: StoredResultSpec<T>): Promise<SetupResultOutcome<T>> {
  const windowMs = emsConfig().coverageCacheMs;
  const outcome = await loadShared(actor, null, "webhook-groups", undefined, { kind: "coverage", windowMs }, (client, shared) =>
    resultFor(actor, client, { ...shared, windowMs }, spec),
  );
  if (outcome.kind !== "ok") return outcome;
  const { answer } = outcome;
  return {
    kind: "ok",
    value: answer.value,
    setup: answer.setup,
    budget: outcome.budget,
    freshness: outcome.freshness,
    source: answer.source,
    updating: answer.updating,
  };
}

interface Answered<T> {
  value: T;
  setup: SetupFacts;
  rateLimit: RateLimit | null;
  ageSeconds: number;
  stale: boolean;
  source: "stored" | "computed";
  updating: SetupUpdating | null;
}

/** One flight per person, kind and options in this process: a person's views side by side compute once. */
const flights = new Map<string, Promise<Answered<unknown>>>();

function resultFor<T>(actor: Actor, client: EmsClient, shared: SharedListOptions, spec: StoredResultSpec<T>): Promise<Answered<T>> {
  const key = `${shared.teamId}\n${client.fingerprint}\n${spec.kind}\n${optionsKeyOf(spec)}`;
  const inflight = flights.get(key);
  if (inflight) return inflight as Promise<Answered<T>>;
  const flight = storedOrComputed(actor, client, shared, spec, key).finally(() => flights.delete(key));
  flights.set(key, flight);
  return flight;
}

async function storedOrComputed<T>(actor: Actor, client: EmsClient, shared: SharedListOptions, spec: StoredResultSpec<T>, key: string): Promise<Answered<T>> {
  const { teamId } = shared;
  const { fingerprint } = client;
  const hashes = setupPageHashes();
  const known = kept.get(key);
  const [looked, row, applying] = await Promise.all([
    answerCache.lookMany(fingerprint, [...hashes.groups, ...hashes.events], shared),
    known ? Promise.resolve(null) : readRow(teamId, fingerprint, spec),
    planApplyingToOwnAccount(actor),
  ]);
  /** The pages' version now and their age, if every page of `version` is stored and `list` would serve it. */
  const current = (pages: Pick<SetupVersion, "groupPages" | "eventPages">) => {
    const groups = hashes.groups.slice(0, pages.groupPages).map((hash) => looked.get(hash));
    const events = hashes.events.slice(0, pages.eventPages).map((hash) => looked.get(hash));
    const all = [...groups, ...events];
    if (all.some((page) => !page?.fresh)) return null;
    const version = setupVersion(
      groups.map((page) => page!.summary),
      events.map((page) => page!.summary),
    );
    return version ? { version, ageMs: Math.max(...all.map((page) => (page as LookedAnswer).ageMs ?? 0)) } : null;
  };
  const served = (stored: StoredValue<T>, storedAt: Date, ageMs: number): Answered<T> => ({
    value: stored.value,
    setup: stored.setup,
    // This process's own figures when it has any (they are newer than what was stored), else the stored ones.
    rateLimit: currentRateLimit(fingerprint) ?? (stored.rateLimit ? { ...stored.rateLimit, resetAt: new Date(stored.rateLimit.resetAt) } : null),
    ageSeconds: Math.max(0, Math.floor(ageMs / 1000)),
    stale: false,
    source: "stored",
    updating: applying ? { asOf: storedAt } : null,
  });

  // Whatever the plan has written since: the last result, as it was (see the module's comment), if
  // it is not older than its answers live (an older one is computed again, once, and kept).
  const recent = (storedAt: Date) => Date.now() - storedAt.getTime() < RESULT_LIFETIME_MS;
  if (applying) {
    if (known && recent(known.storedAt)) return served(known.stored as StoredValue<T>, known.storedAt, Date.now() - known.storedAt.getTime());
    const value = row && recent(row.storedAt) ? await openStored<T>(teamId, fingerprint, spec, row.version.key) : null;
    if (value && row) {
      keep(key, { version: row.version, stored: value, storedAt: row.storedAt });
      return served(value, row.storedAt, Date.now() - row.storedAt.getTime());
    }
  }
  if (known) {
    const now = current(known.version);
    if (now?.version.key === known.version.key) return served(known.stored as StoredValue<T>, known.storedAt, now.ageMs);
  }
  const stored = row ?? (known ? await readRow(teamId, fingerprint, spec) : null);
  if (stored) {
    const now = current(stored.version);
    // The result itself (up to 2 MB) is read only for the setup as it is now.
    const value = now?.version.key === stored.version.key ? await openStored<T>(teamId, fingerprint, spec, stored.version.key) : null;
    if (value && now) {
      keep(key, { version: stored.version, stored: value, storedAt: stored.storedAt });
      return served(value, stored.storedAt, now.ageMs);
    }
  }

  // The setup as loadSetup reads it: what is computed from it is what the page computed before.
  const read = await readSetup(client, shared);
  const { snapshot } = read;
  const computed: StoredValue<T> = {
    value: deepFreeze(spec.compute(snapshot)),
    setup: setupFacts(snapshot),
    rateLimit: read.rateLimit ? { ...read.rateLimit, resetAt: read.rateLimit.resetAt.toISOString() } : null,
  };
  // Only a setup read from stored answers has a version; a stale one (a 429) is not stored for the next view.
  const storedAt = new Date();
  if (snapshot.version && !read.stale) {
    // The value's JSON once: what the row stores, and what finds another team's identical result.
    const valueJson = JSON.stringify(computed.value);
    computed.value = sharedResult(valueJson, computed.value);
    keep(key, { version: snapshot.version, stored: computed, storedAt });
    await storeRow(teamId, fingerprint, spec, snapshot.version, storedPlaintext(valueJson, computed), storedAt);
  }
  return {
    value: computed.value,
    setup: computed.setup,
    rateLimit: read.rateLimit,
    ageSeconds: read.ageSeconds,
    stale: read.stale,
    source: "computed",
    updating: applying ? { asOf: storedAt } : null,
  };
}

/** Which setup the stored result is of: its version, not the result. */
async function readRow(teamId: string, fingerprint: string, spec: StoredResultSpec<unknown>): Promise<{ version: SetupVersion; storedAt: Date } | null> {
  try {
    const row = await prisma.setupResult.findUnique({
      where: { teamId_fingerprint_kind_optionsKey: { teamId, fingerprint, kind: spec.kind, optionsKey: optionsKeyOf(spec) } },
      select: { setupKey: true, groupPages: true, eventPages: true, storedAt: true },
    });
    return row ? { version: { key: row.setupKey, groupPages: row.groupPages, eventPages: row.eventPages }, storedAt: row.storedAt } : null;
  } catch (error) {
    // Only a shortcut: the setup is read and the result computed as before.
    log.warn({ event: "setup.result_unreadable", kind: spec.kind, err: error }, "a stored setup result could not be read");
    return null;
  }
}

/** The stored result, while it is still of that setup (another instance may have stored a newer one since). */
async function readCiphertext(teamId: string, fingerprint: string, spec: StoredResultSpec<unknown>, setupKey: string): Promise<string | null> {
  try {
    const row = await prisma.setupResult.findFirst({
      where: { teamId, fingerprint, kind: spec.kind, optionsKey: optionsKeyOf(spec), setupKey },
      select: { ciphertext: true },
    });
    return row?.ciphertext ?? null;
  } catch (error) {
    log.warn({ event: "setup.result_unreadable", kind: spec.kind, err: error }, "a stored setup result could not be read");
    return null;
  }
}

/** The stored result of that setup, opened; null when another instance has stored a newer one since, or it does not open. */
async function openStored<T>(teamId: string, fingerprint: string, spec: StoredResultSpec<T>, setupKey: string): Promise<StoredValue<T> | null> {
  const ciphertext = await readCiphertext(teamId, fingerprint, spec, setupKey);
  return ciphertext ? openRow<T>(ciphertext, setupResultAad(teamId, fingerprint, spec.kind, optionsKeyOf(spec))) : null;
}

function openRow<T>(ciphertext: string, aad: string): StoredValue<T> | null {
  try {
    const opened = JSON.parse(decryptSecret(ciphertext, aad)) as StoredValue<T>;
    // Once per result and process: the value's JSON again, to share it with another team's identical one.
    return deepFreeze({ ...opened, value: sharedResult(JSON.stringify(opened.value), opened.value) });
  } catch (error) {
    // A rotated-away key or a tampered row: computed again, and stored over it.
    log.warn({ event: "setup.result_unreadable", err: error }, "a stored setup result could not be opened");
    return null;
  }
}

/** `JSON.stringify(stored)`, from the value's JSON already made (up to 2 MB, not made twice). */
function storedPlaintext(valueJson: string, stored: StoredValue<unknown>): string {
  return `{"value":${valueJson},"setup":${JSON.stringify(stored.setup)},"rateLimit":${JSON.stringify(stored.rateLimit)}}`;
}

async function storeRow<T>(teamId: string, fingerprint: string, spec: StoredResultSpec<T>, version: SetupVersion, plaintext: string, storedAt: Date): Promise<void> {
  const { kind } = spec;
  const optionsKey = optionsKeyOf(spec);
  const data = {
    setupKey: version.key,
    groupPages: version.groupPages,
    eventPages: version.eventPages,
    ciphertext: encryptSecret(plaintext, setupResultAad(teamId, fingerprint, kind, optionsKey)),
    storedAt,
  };
  try {
    await prisma.setupResult.upsert({
      where: { teamId_fingerprint_kind_optionsKey: { teamId, fingerprint, kind, optionsKey } },
      create: { teamId, fingerprint, kind, optionsKey, ...data },
      update: data,
    });
    // Yesterday's results and other options' old ones: their answers are gone by now.
    await prisma.setupResult.deleteMany({ where: { teamId, fingerprint, kind, storedAt: { lt: new Date(Date.now() - RESULT_LIFETIME_MS) } } });
  } catch (error) {
    // The next view of another process computes it again; this one keeps it.
    log.warn({ event: "setup.result_store_failed", kind, err: error }, "a setup result could not be stored");
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
