import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { activeKeyId, decryptSecret, encryptSecret, secretAad } from "@/lib/crypto/secret-box";
import { prisma, type PrismaClient } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { untilAborted } from "@/lib/promises";
import type { CallOptions, EmsClient, ItemFor, ListResult } from "./client";
import { sharingWindowMs, type BudgetKind } from "./budget";
import { emsConfig } from "./config";
import type { EmsApiResource } from "./contract";
import { RateLimitedError } from "./errors";
import { sleep } from "./http";
import { emsLog, shortId } from "./log";
import { CIPHERTEXT_HEAD_LENGTH, openedAnswer, recordsHash, rememberedAnswer, sharedRecords, sharedRecordsOf, summaryOf, type CiphertextSummary } from "./opened-answers";
import { buildQueryString, type QueryFor, type RecordQueryFor } from "./query";
import { currentRateLimit, type RateLimit } from "./rate-limit";
import { ems } from "./state";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan, setSpanAttributes } from "@/lib/telemetry/spans";

/**
 * Shared answers: identical listing queries, or reads of one record, of one team's credential within
 * a short window (EMS_SHARED_ANSWER_SECONDS, default 30 s) cost one API call, on any number of
 * instances.
 *
 * - Key: team id + credential fingerprint + sha-256 of the resource (and record id) and its
 *   canonical query string (buildQueryString: fixed parameter order, validated). Another team holding the same key, or the
 *   same person after replacing their credential, has another key and reads nothing of this one.
 * - Store: a row of EmsSharedAnswer in PostgreSQL, the answer (items, meta, rate-limit figures)
 *   AES-256-GCM encrypted with the credential key ring and bound to its row by associated data
 *   (`EmsSharedAnswer:<team>:<fingerprint>:<hash>:ciphertext`), since it holds webhook header values.
 *   PostgreSQL because every instance already shares it (sessions, tokens, throttles), it is the
 *   only store a deployment is required to have, and the token lease has shown the one-statement
 *   lease works on it; an answer is a few kB to a few hundred kB, read by primary key.
 * - One call per process: concurrent identical requests share one promise (single flight).
 * - One call across instances: the instance that finds no fresh answer claims the row's lease with
 *   one statement (INSERT ... ON CONFLICT DO UPDATE ... WHERE the lease is free or expired, as
 *   EmsTokenCache does for tokens); the others poll the row until the holder stores the new answer
 *   (or gives the lease back, or it runs out, and then they claim it themselves). No connection is
 *   held while the API is called.
 * - The window grows as the budget runs low (`sharingWindowMs`: four times under half the window's
 *   credits left, until the reset under EMS_LOW_BUDGET_PERCENT): page views pace themselves too.
 * - Refresh: bypasses the window; still one call for concurrent refreshes.
 * - A 429 (or a budget known to be spent) with an earlier answer stored: that answer is returned,
 *   marked stale, instead of the error (answers older than an hour are not served, and purged).
 * - Read by summary: a look at the row brings its ciphertext's length, beginning and key id, computed by
 *   PostgreSQL, not the ciphertext; that finds the answer this process already opened
 *   (lib/ems/opened-answers.ts), and only a miss reads the ciphertext (a Health view of 5,000
 *   groups reads 35 answers, 23 MB of ciphertext, every view). A row stored anew has a new summary.
 * - Key rotation: answers are not re-encrypted but dropped (`dropAnswersUnderOldKeys`, called by
 *   `npm run keys:rotate`): they are at most an hour old and cost one call to get again. An answer
 *   that no key decrypts is simply a miss.
 * - Dropped with the credential (`dropSharedAnswers`), by team and fingerprint, when it is replaced
 *   or deleted; an in-flight call for it then stores nothing (its lease went with the row).
 */

export interface SharedAnswer<T> extends ListResult<T> {
  /** Seconds since the EMS answered (database time): 0 when this request asked the API. */
  ageSeconds: number;
  /** "api": this request asked the API; "shared": an answer stored by another page view or instance. */
  source: "api" | "shared";
  /** Served because the API refused with a rate limit: it is older than the window. */
  stale: boolean;
  /**
   * Which stored ciphertext this is (lib/ems/opened-answers.ts): what is computed from answers can
   * be kept by it (lib/setup/stored-results.ts). Null when the answer was not stored (sharing off, or
   * the store failed).
   */
  summary: CiphertextSummary | null;
}

/** One record's shared answer: the record, or null when the API answered 404 (also shared). */
export interface SharedRecord<T> extends Omit<SharedAnswer<T>, "items" | "meta" | "summary"> {
  item: T | null;
}

export interface SharedListOptions extends Omit<CallOptions, "budget"> {
  /** The team the answer is shared within (and whose usage the call is recorded to). */
  teamId: string;
  /** Ask the API even when a fresh answer is stored. */
  refresh?: boolean;
  /** Overrides EMS_SHARED_ANSWER_SECONDS (ms); 0: no sharing, every request asks the API. */
  windowMs?: number;
  /** What a lookup started beside other queries found (`peekForUser`), so it is not read again. */
  peeked?: PeekedAnswer | null;
  /** Who spends the call's credits (lib/ems/budget.ts); default a page view. */
  kind?: BudgetKind;
}

/** What the row held when it was read: its answer's ciphertext, summarised, and how old it was (database time). */
interface AnswerRow {
  /** Null while the row holds only a lease. */
  summary: CiphertextSummary | null;
  ageMs: number | null;
  fetchedAt: Date | null;
}

/** The columns a look at a row selects (`summaryColumns`), as they come back. */
interface SummaryColumns {
  length: number | null;
  head: string | null;
  keyId: string | null;
  ageMs: number | null;
  fetchedAt: Date | null;
}

/**
 * The row's ciphertext summarised by PostgreSQL (lib/ems/opened-answers.ts), and its age: `table` is
 * the table or its alias. `octet_length` and a `substr` from the start read a TOASTed value's size
 * and first bytes only; `length` and `right` read all of it (23 MB a Health view of 5,000 groups).
 */
function summaryColumns(table: string): Prisma.Sql {
  const t = Prisma.raw(table);
  const head = Prisma.sql`substr(${t}."ciphertext", 1, ${Prisma.raw(String(CIPHERTEXT_HEAD_LENGTH))})`;
  return Prisma.sql`octet_length(${t}."ciphertext")::integer AS "length", ${head} AS "head",
    split_part(${head}, ':', 2) AS "keyId", ${t}."fetchedAt",
    (EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - ${t}."fetchedAt")) * 1000)::float8 AS "ageMs"`;
}

function answerRowOf({ length, head, keyId, ageMs, fetchedAt }: SummaryColumns): AnswerRow {
  return { summary: length === null || head === null || keyId === null ? null : { length, head, keyId }, ageMs, fetchedAt };
}

/** Which row: the key of EmsSharedAnswer. */
interface AnswerWhere {
  teamId: string;
  fingerprint: string;
  queryHash: string;
}

export interface PeekedAnswer extends AnswerRow {
  fingerprint: string;
  queryHash: string;
}

/** The columns of `peekForUserQuery`, named apart from any other statement's they are joined to. */
export type PeekColumns = { [K in keyof SummaryColumns as `peek${Capitalize<K & string>}`]: SummaryColumns[K] } & { peekFingerprint: string | null };

/**
 * `peekForUser` as a query to run on its own or to join to another statement (a listing page sends
 * it with its saved views: lib/views/tabs.ts), and how to read what came back: the person's own
 * credential's stored answer to `queryHash`, summarised. `read` takes the rows that carry its
 * columns (null in them: nothing stored).
 */
export function peekForUserQuery(
  userId: string,
  teamId: string,
  queryHash: string,
): { sql: Prisma.Sql; read: (rows: readonly Partial<PeekColumns>[]) => PeekedAnswer | null } {
  const sql = Prisma.sql`
    SELECT a."fingerprint" AS "peekFingerprint", s."length" AS "peekLength", s."head" AS "peekHead", s."keyId" AS "peekKeyId",
           s."fetchedAt" AS "peekFetchedAt", s."ageMs" AS "peekAgeMs"
    FROM "ApiCredential" c
    JOIN "Membership" m ON m."userId" = c."userId" AND m."teamId" = ${teamId}
    JOIN "EmsSharedAnswer" a ON a."fingerprint" = c."fingerprint" AND a."teamId" = m."teamId" AND a."queryHash" = ${queryHash}
    CROSS JOIN LATERAL (SELECT ${summaryColumns("a")}) AS s
    WHERE c."userId" = ${userId}`;
  const read = (rows: readonly Partial<PeekColumns>[]): PeekedAnswer | null => {
    const row = rows.find((candidate) => candidate.peekFingerprint != null);
    if (!row) return null;
    const columns: SummaryColumns = {
      length: row.peekLength ?? null,
      head: row.peekHead ?? null,
      keyId: row.peekKeyId ?? null,
      ageMs: row.peekAgeMs ?? null,
      fetchedAt: row.peekFetchedAt ?? null,
    };
    return { ...answerRowOf(columns), fingerprint: row.peekFingerprint!, queryHash };
  };
  return { sql, read };
}

/** Answers older than this are not served even on a 429, and are purged. */
const STALE_LIMIT_MS = 60 * 60_000;
const PURGE_INTERVAL_MS = 60_000;
const DEFAULT_LEASE_MS = 15_000;
/** Time left in a lease after its call's deadline, to store the answer. */
const LEASE_WRITE_MARGIN_MS = 1_000;

let leaseOverrideMs: number | null = null;
/** For tests: a short lease (null restores the default, 15 s: the page budget plus time to store). */
export function setAnswerLeaseMs(ms: number | null): void {
  leaseOverrideMs = ms;
}

export function answerAad(teamId: string, fingerprint: string, queryHash: string): string {
  return secretAad("EmsSharedAnswer", `${teamId}:${fingerprint}:${queryHash}`, "ciphertext");
}

/** The canonical form of a listing query (validated: throws InvalidQueryError) and its hash. */
export function canonicalQuery<R extends EmsApiResource>(resource: R, query: QueryFor<R>): { canonical: string; hash: string } {
  return hashed(`${resource}?${buildQueryString(resource, query)}`);
}

/** The same for a read of one record: `events/1190?fields=…` (the client validates the id). */
export function canonicalRecord<R extends EmsApiResource>(resource: R, id: number, query: RecordQueryFor<R>): { canonical: string; hash: string } {
  return hashed(`${resource}/${id}?${buildQueryString(resource, { fields: query.fields, expand: query.expand } as QueryFor<R>)}`);
}

function hashed(canonical: string): { canonical: string; hash: string } {
  return { canonical, hash: createHash("sha256").update(canonical).digest("hex") };
}

/** A record stored as a one-row (or, for a 404, empty) answer, so both kinds share one store. */
function asListResult<T>(item: T | null, rateLimit: ListResult<T>["rateLimit"]): ListResult<T> {
  const items = item === null ? [] : [item];
  return { items, meta: { totalCount: items.length, pageCount: 1, currentPage: 1, perPage: 1 }, rateLimit };
}

type StoredAnswer = { items: unknown[]; meta: ListResult<unknown>["meta"]; rateLimit: { limit: number; remaining: number; resetAt: string } | null };

function encode(result: ListResult<unknown>): string {
  const stored: StoredAnswer = {
    items: result.items,
    meta: result.meta,
    rateLimit: result.rateLimit ? { ...result.rateLimit, resetAt: result.rateLimit.resetAt.toISOString() } : null,
  };
  return JSON.stringify(stored);
}

/** The records' JSON in `encode`'s output, which writes them first: `{"items":[…],"meta":…}` (a string's `,"meta":` is escaped). */
function storedItemsJson(plaintext: string): string | null {
  const end = plaintext.lastIndexOf(',"meta":');
  return plaintext.startsWith('{"items":') && end > 0 ? plaintext.slice(9, end) : null;
}

function decode<T>(plaintext: string): ListResult<T> {
  const stored = JSON.parse(plaintext) as StoredAnswer;
  const rateLimit: RateLimit | null = stored.rateLimit ? { ...stored.rateLimit, resetAt: new Date(stored.rateLimit.resetAt) } : null;
  const itemsJson = storedItemsJson(plaintext);
  const items = itemsJson !== null ? sharedRecords(itemsJson, stored.items) : stored.items;
  return { items: items as T[], meta: stored.meta, rateLimit };
}

/**
 * The API's answer as `decode` would read it back from its stored plaintext, without decrypting or
 * parsing again: the records are the client's parse (checked, plain JSON values), made what JSON
 * would make them (`asJsonValues`); meta and rate limit are copies, since the opened answer is frozen.
 */
function asStored<T>(result: ListResult<T>, itemsHash: string | null): ListResult<T> {
  asJsonValues(result.items);
  const items = itemsHash !== null ? sharedRecordsOf(itemsHash, result.items) : result.items;
  return { items: items as T[], meta: { ...result.meta }, rateLimit: result.rateLimit ? { ...result.rateLimit, resetAt: new Date(result.rateLimit.resetAt) } : null };
}

/**
 * In place, what a JSON round trip changes in parsed values: a key whose value is undefined goes,
 * an undefined array entry becomes null. The parse then reads exactly as the stored JSON does
 * (`"key" in record` included), whichever instance opens the answer.
 */
function asJsonValues(value: unknown): void {
  if (!value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (value[index] === undefined) value[index] = null;
      else asJsonValues(value[index]);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (record[key] === undefined) delete record[key];
    else asJsonValues(record[key]);
  }
}

export interface AnswerCache {
  list<R extends EmsApiResource>(client: EmsClient, resource: R, query: QueryFor<R>, options: SharedListOptions): Promise<SharedAnswer<ItemFor<R>>>;
  /** One record by id (`client.getOne`, 1 credit), shared the same way; a 404 is an answer too. */
  record<R extends EmsApiResource>(client: EmsClient, resource: R, id: number, query: RecordQueryFor<R>, options: SharedListOptions): Promise<SharedRecord<ItemFor<R>>>;
  /**
   * The stored answer to `queryHash` (canonicalQuery or canonicalRecord) for the person's current
   * credential (found through ApiCredential by user id, so the lookup needs no decrypted credential
   * and can run beside the credential's own load), and only in a team they belong to.
   */
  peekForUser(userId: string, teamId: string, queryHash: string): Promise<PeekedAnswer | null>;
  /**
   * The stored answers to many queries of one credential (`queryHashes`), looked at in one statement;
   * the fresh ones this process has not opened yet are read and opened in a few more, by size
   * (OPEN_MANY_BATCH_LENGTH). Each row found comes back by its hash, for `list`'s `peeked`: that
   * look then finds the answer opened and asks the database nothing. A setup of 35 pages costs a
   * fresh process three or four round trips instead of 70, one after another.
   */
  peekMany(client: EmsClient, queryHashes: readonly string[], options: Pick<SharedListOptions, "teamId" | "windowMs">): Promise<Map<string, PeekedAnswer>>;
  /**
   * The stored answers to many queries of one credential, summarised and never opened, each with
   * whether `list` would serve it as it is (`fresh`: within the sharing window, as `list` judges it
   * now). One statement; what a result kept per setup is checked against (lib/setup/stored-results.ts).
   */
  lookMany(fingerprint: string, queryHashes: readonly string[], options: Pick<SharedListOptions, "teamId" | "windowMs">): Promise<Map<string, LookedAnswer>>;
}

export interface LookedAnswer {
  summary: CiphertextSummary | null;
  ageMs: number | null;
  /** `list` would serve it without asking the API. */
  fresh: boolean;
}

/**
 * Characters of ciphertext one statement of `peekMany` reads: a 5,000-group account's 35 answers
 * (23 MB) in three statements, so no more than about a third of them is in the heap twice
 * (ciphertext and plaintext) at once under `npm start`'s 256 MB.
 */
const OPEN_MANY_BATCH_LENGTH = 8_000_000;

/**
 * An answer cache on a database client and a single-flight map. The portal has one per process
 * (`answerCache`); tests make two on two database clients to play two instances.
 */
export function createAnswerCache(db: PrismaClient, flights: Map<string, Promise<unknown>>): AnswerCache {
  let lastPurge = 0;

  /** A look at the row: its answer summarised, not sent. */
  async function read(teamId: string, fingerprint: string, queryHash: string): Promise<AnswerRow | null> {
    const rows = await db.$queryRaw<SummaryColumns[]>`
      SELECT ${summaryColumns('"EmsSharedAnswer"')}
      FROM "EmsSharedAnswer"
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ${queryHash}`;
    return rows[0] ? answerRowOf(rows[0]) : null;
  }

  /** The row's ciphertext itself, with its age: read when its summary found nothing opened here. */
  async function readCiphertext(
    teamId: string,
    fingerprint: string,
    queryHash: string,
  ): Promise<{ ciphertext: string | null; ageMs: number | null; fetchedAt: Date | null } | null> {
    const rows = await db.$queryRaw<{ ciphertext: string | null; ageMs: number | null; fetchedAt: Date | null }[]>`
      SELECT "ciphertext", "fetchedAt",
             (EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - "fetchedAt")) * 1000)::float8 AS "ageMs"
      FROM "EmsSharedAnswer"
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ${queryHash}`;
    return rows[0] ?? null;
  }

  /** The lease, if free or expired: one statement decides between any number of claimants. */
  async function claim(teamId: string, fingerprint: string, queryHash: string, leaseId: string): Promise<AnswerRow | null> {
    const leaseMs = leaseOverrideMs ?? DEFAULT_LEASE_MS;
    const rows = await db.$queryRaw<SummaryColumns[]>`
      INSERT INTO "EmsSharedAnswer" ("teamId", "fingerprint", "queryHash", "leaseId", "leaseUntil")
      VALUES (${teamId}, ${fingerprint}, ${queryHash}, ${leaseId}, (now() AT TIME ZONE 'UTC') + ${leaseMs}::integer * interval '1 millisecond')
      ON CONFLICT ("teamId", "fingerprint", "queryHash") DO UPDATE
        SET "leaseId" = excluded."leaseId", "leaseUntil" = excluded."leaseUntil"
        WHERE "EmsSharedAnswer"."leaseUntil" IS NULL OR "EmsSharedAnswer"."leaseUntil" <= (now() AT TIME ZONE 'UTC')
      RETURNING ${summaryColumns('"EmsSharedAnswer"')}`;
    return rows[0] ? answerRowOf(rows[0]) : null;
  }

  /**
   * Stores the answer and ends the lease, only while the lease is still this holder's: the
   * ciphertext stored and the `recordsHash` of the records' JSON it holds, or null.
   */
  async function store(
    teamId: string,
    fingerprint: string,
    queryHash: string,
    leaseId: string,
    result: ListResult<unknown>,
  ): Promise<{ ciphertext: string; itemsHash: string | null } | null> {
    const plaintext = encode(result);
    const ciphertext = encryptSecret(plaintext, answerAad(teamId, fingerprint, queryHash));
    // Hashed now, so that the plaintext (as long as the page's JSON) is not held through the write.
    const itemsJson = storedItemsJson(plaintext);
    const itemsHash = itemsJson === null ? null : recordsHash(itemsJson);
    const count = await db.$executeRaw`
      UPDATE "EmsSharedAnswer"
      SET "ciphertext" = ${ciphertext}, "fetchedAt" = (now() AT TIME ZONE 'UTC'), "leaseId" = NULL, "leaseUntil" = NULL
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ${queryHash} AND "leaseId" = ${leaseId}`;
    return count === 1 ? { ciphertext, itemsHash } : null;
  }

  /**
   * The answer just stored, kept as the opened answer of its ciphertext (interned, frozen): the next
   * views in this process find it by the row's summary instead of reading the ciphertext back.
   * Returned, so that the request that asked serves the same object: serving the API's own parse as
   * well kept two copies of every page alive (a first Health view of a 5,000-group account held
   * 100 MB, not 50). It is the API's parse itself, not the ciphertext decrypted and parsed a second
   * time: that was a third parse of every page (after the body's and the schema check's copy) and
   * its decryption buffers, for every page at once in flight when a plan's undo read a 5,000-group
   * account again (bench:memory's peak).
   */
  function rememberStored<T>(stored: { ciphertext: string; itemsHash: string | null }, result: ListResult<T>, aad: string): ListResult<T> {
    return openedAnswer(stored.ciphertext, aad, () => asStored(result, stored.itemsHash));
  }

  async function release(teamId: string, fingerprint: string, queryHash: string, leaseId: string): Promise<void> {
    await db.$executeRaw`
      UPDATE "EmsSharedAnswer" SET "leaseId" = NULL, "leaseUntil" = NULL
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ${queryHash} AND "leaseId" = ${leaseId}`.catch((error: unknown) => {
      // The lease then runs out by itself; until it does, others wait for an answer that will not come.
      emsLog("warn", "ems.shared_answer_release_failed", { fingerprint: shortId(fingerprint), errorName: error instanceof Error ? error.name : "Error" });
      return 0;
    });
  }

  function purgeNowAndThen(): void {
    if (Date.now() - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = Date.now();
    void db.$executeRaw`
      DELETE FROM "EmsSharedAnswer"
      WHERE COALESCE("fetchedAt", "leaseUntil") < (now() AT TIME ZONE 'UTC') - ${STALE_LIMIT_MS}::integer * interval '1 millisecond'
        AND ("leaseUntil" IS NULL OR "leaseUntil" <= (now() AT TIME ZONE 'UTC'))`.catch((error: unknown) => {
      // Housekeeping: the next purge (in PURGE_INTERVAL_MS) deletes the same rows.
      emsLog("warn", "ems.shared_answer_purge_failed", { errorName: error instanceof Error ? error.name : "Error" });
      return 0;
    });
  }

  /** Many rows of one credential looked at in one statement: their summaries, not their ciphertexts. */
  function lookRows(teamId: string, fingerprint: string, queryHashes: readonly string[]) {
    return db.$queryRaw<(SummaryColumns & { queryHash: string })[]>`
      SELECT "queryHash", ${summaryColumns('"EmsSharedAnswer"')}
      FROM "EmsSharedAnswer"
      WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ANY(${[...queryHashes]}::text[])`;
  }

  const servable = (row: { ageMs: number | null } | null) => row !== null && row.ageMs !== null && row.ageMs <= STALE_LIMIT_MS;

  /**
   * The row's answer: the one this process opened for its summary, or else its ciphertext read and
   * opened. With the row it is as old as: the ciphertext read may find a newer one stored since.
   */
  async function open<T>(row: AnswerRow | null, where: AnswerWhere, aad: string): Promise<{ answer: ListResult<T>; row: AnswerRow } | null> {
    if (!row?.summary || !servable(row)) return null;
    const remembered = rememberedAnswer<ListResult<T>>(row.summary, aad);
    if (remembered) return { answer: remembered, row };
    try {
      const full = await readCiphertext(where.teamId, where.fingerprint, where.queryHash);
      const ciphertext = full?.ciphertext;
      if (!ciphertext || !servable(full)) return null;
      const answer = openedAnswer(ciphertext, aad, () => decode<T>(decryptSecret(ciphertext, aad)));
      return { answer, row: { summary: summaryOf(ciphertext), ageMs: full.ageMs, fetchedAt: full.fetchedAt } };
    } catch (error) {
      // A rotated-away key, a tampered row, or the read failed: a miss, the API is asked again.
      emsLog("warn", "ems.shared_answer_unreadable", { fingerprint: shortId(where.fingerprint), errorName: error instanceof Error ? error.name : "Error" });
      return null;
    }
  }

  /** A stored answer, with the newest rate-limit figures known: this process's own, when newer than the answer's. */
  const shared = <T>(fingerprint: string, result: ListResult<T>, row: AnswerRow, stale = false): SharedAnswer<T> => {
    const ageMs = row.ageMs ?? 0;
    const memory = ems.rateLimits.get(fingerprint);
    const rateLimit =
      memory && memory.observedAt >= Date.now() - ageMs ? { limit: memory.limit, remaining: memory.remaining, resetAt: memory.resetAt } : result.rateLimit;
    return { ...result, rateLimit, ageSeconds: Math.max(0, Math.floor(ageMs / 1000)), source: "shared", stale, summary: row.summary };
  };

  /** `ask` is the API call (a listing or a record read) that a missing or old answer costs. */
  async function resolve<T>(
    client: EmsClient,
    ask: (options: CallOptions) => Promise<ListResult<T>>,
    queryHash: string,
    options: SharedListOptions,
    windowMs: number,
  ): Promise<SharedAnswer<T>> {
    const { teamId } = options;
    const { fingerprint } = client;
    const aad = answerAad(teamId, fingerprint, queryHash);
    const where: AnswerWhere = { teamId, fingerprint, queryHash };
    const scope = shortId(fingerprint);
    const peeked = options.peeked && options.peeked.fingerprint === fingerprint && options.peeked.queryHash === queryHash ? options.peeked : undefined;
    let seen = peeked !== undefined ? peeked : await read(teamId, fingerprint, queryHash);
    // Shared longer as the budget runs low (lib/ems/budget.ts), by the last figures this process saw.
    const shareForMs = sharingWindowMs(windowMs, currentRateLimit(fingerprint));
    const isFresh = (row: AnswerRow | null) => row?.ageMs !== null && row?.ageMs !== undefined && row.ageMs < shareForMs;
    if (!options.refresh && isFresh(seen)) {
      const opened = await open<T>(seen, where, aad);
      if (opened) return shared(fingerprint, opened.answer, opened.row);
    }
    const seenFetchedAt = seen?.fetchedAt?.getTime() ?? null;
    /** An answer stored after this request looked: as new as a call of its own would be. */
    const isNewer = (row: AnswerRow | null) => row?.fetchedAt != null && (seenFetchedAt === null || row.fetchedAt.getTime() > seenFetchedAt);
    const leaseMs = leaseOverrideMs ?? DEFAULT_LEASE_MS;
    const callOptions = (): CallOptions => ({
      requestId: options.requestId,
      waitForRateLimit: options.waitForRateLimit,
      timeoutMs: options.timeoutMs,
      // The call ends before its lease does, so that a live holder is never taken over.
      signal: AbortSignal.timeout(Math.max(leaseMs * 0.75, leaseMs - LEASE_WRITE_MARGIN_MS)),
      budget: { kind: options.kind ?? "page", teamId },
    });
    let wait = 25;
    for (;;) {
      const leaseId = randomUUID();
      const claimed = await claim(teamId, fingerprint, queryHash, leaseId);
      if (claimed) {
        // Stored between this request's look and its claim: use it, ask for nothing.
        if (isNewer(claimed) && (options.refresh || isFresh(claimed))) {
          const opened = await open<T>(claimed, where, aad);
          if (opened) {
            await release(teamId, fingerprint, queryHash, leaseId);
            return shared(fingerprint, opened.answer, opened.row);
          }
        }
        if (claimed.summary) seen = claimed;
        let result: ListResult<T>;
        try {
          result = await ask(callOptions());
        } catch (error) {
          await release(teamId, fingerprint, queryHash, leaseId);
          const earlier = error instanceof RateLimitedError ? await open<T>(seen, where, aad) : null;
          if (earlier) {
            emsLog("info", "ems.shared_answer_stale", { requestId: options.requestId, fingerprint: scope, ageMs: Math.round(earlier.row.ageMs ?? 0) });
            return shared(fingerprint, earlier.answer, earlier.row, true);
          }
          throw error;
        }
        const stored = await store(teamId, fingerprint, queryHash, leaseId, result).catch((error: unknown) => {
          emsLog("warn", "ems.shared_answer_store_failed", {
            requestId: options.requestId,
            fingerprint: scope,
            errorName: error instanceof Error ? error.name : "Error",
          });
          return null;
        });
        if (!stored) return { ...result, ageSeconds: 0, source: "api", stale: false, summary: null };
        purgeNowAndThen();
        return { ...rememberStored(stored, result, aad), ageSeconds: 0, source: "api", stale: false, summary: summaryOf(stored.ciphertext) };
      }
      // Another request (here or on another instance) is asking the API: wait for its answer.
      await sleep(wait * (0.75 + Math.random() / 2), options.signal);
      wait = Math.min(wait * 2, 250);
      const now = await read(teamId, fingerprint, queryHash);
      if (isNewer(now)) {
        const opened = await open<T>(now, where, aad);
        if (opened) return shared(fingerprint, opened.answer, opened.row);
      }
      if (now?.summary) seen = seen?.summary ? seen : now;
    }
  }

  /**
   * `answer`, as a span ("EMS shared answer events") whose EMS calls, on a miss, are its children,
   * and counted in ems_shared_answers_total: hit (a stored answer), miss (this request asked the
   * API), joined (a call already under way in this process), stale (an older answer on a 429).
   */
  async function observedAnswer<T>(
    resource: EmsApiResource,
    client: EmsClient,
    queryHash: string,
    ask: (options: CallOptions) => Promise<ListResult<T>>,
    options: SharedListOptions,
  ): Promise<SharedAnswer<T>> {
    return inSpan(`EMS shared answer ${resource}`, { attributes: { "ems.resource": resource, "ems.refresh": options.refresh === true } }, async (span) => {
      const joined = { value: false };
      const result = await answer(client, queryHash, ask, options, joined);
      const outcome = result.stale ? "stale" : result.source === "api" ? "miss" : joined.value ? "joined" : "hit";
      metrics().emsSharedAnswers.inc({ resource, result: outcome });
      setSpanAttributes(span, { "ems.shared_answer": outcome, "ems.answer_age_seconds": result.ageSeconds, "ems.credits_remaining": result.rateLimit?.remaining });
      return result;
    });
  }

  /** The answer to `queryHash`: joined if this process is already asking, else resolved. */
  async function answer<T>(
    client: EmsClient,
    queryHash: string,
    ask: (options: CallOptions) => Promise<ListResult<T>>,
    options: SharedListOptions,
    joined: { value: boolean },
  ): Promise<SharedAnswer<T>> {
    const windowMs = options.windowMs ?? emsConfig().sharedAnswerMs;
    if (windowMs <= 0) {
      const { requestId, waitForRateLimit, timeoutMs, signal, teamId, kind = "page" } = options;
      const result = await ask({ requestId, waitForRateLimit, timeoutMs, signal, budget: { kind, teamId } });
      return { ...result, ageSeconds: 0, source: "api", stale: false, summary: null };
    }
    const key = `${options.teamId}\n${client.fingerprint}\n${queryHash}`;
    const inflight = flights.get(key) as Promise<SharedAnswer<T>> | undefined;
    // Joining a call already under way in this process: its answer, shared.
    joined.value = inflight !== undefined;
    if (inflight) return untilAborted(inflight, options.signal).then((answer) => ({ ...answer, source: "shared" as const }));
    // The flight is shared: it must not end because the first caller's page gave up.
    const flight = resolve(client, ask, queryHash, { ...options, signal: undefined }, windowMs);
    flights.set(key, flight);
    try {
      return await untilAborted(flight, options.signal);
    } finally {
      if (flights.get(key) === flight) flights.delete(key);
    }
  }

  return {
    async list(client, resource, query, options) {
      const { hash } = canonicalQuery(resource, query);
      return await observedAnswer(resource, client, hash, (callOptions) => client.list(resource, query, callOptions), options);
    },

    async record(client, resource, id, query, options) {
      const { hash } = canonicalRecord(resource, id, query);
      const ask = async (callOptions: CallOptions) => {
        const { item, rateLimit } = await client.getOne(resource, id, query, callOptions);
        return asListResult(item, rateLimit);
      };
      const shared = await observedAnswer(resource, client, hash, ask, options);
      return { item: shared.items[0] ?? null, rateLimit: shared.rateLimit, ageSeconds: shared.ageSeconds, source: shared.source, stale: shared.stale };
    },

    async peekForUser(userId, teamId, queryHash) {
      const peek = peekForUserQuery(userId, teamId, queryHash);
      return peek.read(await db.$queryRaw<PeekColumns[]>`SELECT * FROM (${peek.sql}) AS "peek"`);
    },

    async lookMany(fingerprint, queryHashes, options) {
      const found = new Map<string, LookedAnswer>();
      const windowMs = options.windowMs ?? emsConfig().sharedAnswerMs;
      if (queryHashes.length === 0 || windowMs <= 0) return found;
      const shareForMs = sharingWindowMs(windowMs, currentRateLimit(fingerprint));
      for (const row of await lookRows(options.teamId, fingerprint, queryHashes)) {
        const { summary, ageMs } = answerRowOf(row);
        found.set(row.queryHash, { summary, ageMs, fresh: summary !== null && ageMs !== null && ageMs < shareForMs });
      }
      return found;
    },

    async peekMany(client, queryHashes, options) {
      const { teamId } = options;
      const { fingerprint } = client;
      const found = new Map<string, PeekedAnswer>();
      const windowMs = options.windowMs ?? emsConfig().sharedAnswerMs;
      if (queryHashes.length === 0 || windowMs <= 0) return found;
      const rows = await lookRows(teamId, fingerprint, queryHashes);
      const shareForMs = sharingWindowMs(windowMs, currentRateLimit(fingerprint));
      const unopened: { queryHash: string; length: number }[] = [];
      for (const row of rows) {
        const peeked: PeekedAnswer = { ...answerRowOf(row), fingerprint, queryHash: row.queryHash };
        found.set(row.queryHash, peeked);
        // Only what `list` would serve: an old answer is asked of the API again, not opened for nothing.
        const fresh = peeked.ageMs !== null && peeked.ageMs < shareForMs;
        if (fresh && peeked.summary && !rememberedAnswer(peeked.summary, answerAad(teamId, fingerprint, row.queryHash)))
          unopened.push({ queryHash: row.queryHash, length: peeked.summary.length });
      }
      const batches: string[][] = [];
      let length = Infinity;
      for (const row of unopened) {
        if (length + row.length > OPEN_MANY_BATCH_LENGTH) {
          batches.push([]);
          length = 0;
        }
        batches.at(-1)!.push(row.queryHash);
        length += row.length;
      }
      const readBatch = (hashes: string[]) => db.$queryRaw<{ queryHash: string; ciphertext: string | null; ageMs: number | null; fetchedAt: Date | null }[]>`
        SELECT "queryHash", "ciphertext", "fetchedAt",
               (EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - "fetchedAt")) * 1000)::float8 AS "ageMs"
        FROM "EmsSharedAnswer"
        WHERE "teamId" = ${teamId} AND "fingerprint" = ${fingerprint} AND "queryHash" = ANY(${hashes}::text[])`;
      // The next batch is on its way while this one is decrypted and parsed.
      let next = batches.length > 0 ? readBatch(batches[0]) : null;
      for (let index = 0; next; index++) {
        const read = await next;
        next = index + 1 < batches.length ? readBatch(batches[index + 1]) : null;
        for (const { queryHash, ciphertext, ageMs, fetchedAt } of read) {
          if (!ciphertext || !servable({ ageMs })) continue;
          const aad = answerAad(teamId, fingerprint, queryHash);
          try {
            openedAnswer(ciphertext, aad, () => decode(decryptSecret(ciphertext, aad)));
            // Rewritten since the look, perhaps: the row as read now, which is what was opened.
            found.set(queryHash, { summary: summaryOf(ciphertext), ageMs, fetchedAt, fingerprint, queryHash });
          } catch (error) {
            // As `open` does: a miss, which `list` then reads (and asks the API for) as any other.
            emsLog("warn", "ems.shared_answer_unreadable", { fingerprint: shortId(fingerprint), errorName: error instanceof Error ? error.name : "Error" });
          }
        }
      }
      return found;
    },
  };
}

/** The portal's answer cache: the app's database client, this process's single-flight map. */
export const answerCache: AnswerCache = createAnswerCache(prisma, ems.answerFlights);

/**
 * Drops the team's stored answers of a credential (replaced or deleted), with the caller's client so
 * that it happens in the transaction that changes the credential. Without a team: every team's
 * answers of that credential (nobody uses it any more).
 */
export async function dropSharedAnswers(db: Pick<PrismaClient, "emsSharedAnswer" | "setupResult">, fingerprint: string, teamId?: string): Promise<void> {
  await db.emsSharedAnswer.deleteMany({ where: { fingerprint, ...(teamId ? { teamId } : {}) } });
  // What was computed from them (lib/setup/stored-results.ts) names the same records.
  await db.setupResult.deleteMany({ where: { fingerprint, ...(teamId ? { teamId } : {}) } });
}

/**
 * Listings whose pages hold whole records by id, in id order and with no search: what a write of
 * one record changes in them is known. lib/setup/load.ts declares the setup's pages (groups with
 * their webhooks, and events) once it has hashed them.
 */
const recordPages = new Map<string, "webhook-groups" | "events">();

export function declareRecordPages(resource: "webhook-groups" | "events", queryHashes: Iterable<string>): void {
  for (const hash of queryHashes) recordPages.set(hash, resource);
}

/** The record a write touched: a webhook (with the group it is created in or moved to) or a group. */
export interface WrittenRecord {
  resource: "webhooks" | "webhook-groups";
  /** Undefined for a create (the new id is not known before the answer). */
  id?: number;
  /** A webhook's group as the write names it (create, or an update that moves it). */
  groupId?: number | null;
  operation: "create" | "update" | "delete";
}

/** A stored answer kept through a write, as it was when looked at (its ciphertext's beginning). */
export interface KeptAnswer {
  teamId: string;
  queryHash: string;
  head: string;
}

/**
 * The stored answers of a credential that a write of `touched` cannot have changed: the setup's
 * pages of events (no write of the portal touches an event), and its pages of groups that this
 * process has opened and that hold neither the group nor the webhook written. A group created or
 * deleted changes every page of groups (their count, and which groups each holds); a page of groups
 * not opened here cannot be told apart, and goes.
 *
 * Why: every write dropped all of the credential's answers, so while a plan of 5,000 steps applied,
 * each Health, Coverage, plan or draft view in between asked the API for all 35 pages of a
 * 5,000-group account again and opened them (23 MB of ciphertext a view, the heap's peak); now it
 * asks for the one page that changed.
 */
export async function answersUnchangedBy(db: Pick<PrismaClient, "$queryRaw">, fingerprint: string, touched: WrittenRecord): Promise<KeptAnswer[]> {
  if (recordPages.size === 0) return [];
  const rows = await db.$queryRaw<(SummaryColumns & { teamId: string; queryHash: string })[]>`
    SELECT "teamId", "queryHash", ${summaryColumns('"EmsSharedAnswer"')}
    FROM "EmsSharedAnswer"
    WHERE "fingerprint" = ${fingerprint} AND "queryHash" = ANY(${[...recordPages.keys()]}::text[]) AND "ciphertext" IS NOT NULL`;
  const groupsChange = touched.resource === "webhook-groups" && touched.operation !== "update";
  const kept: KeptAnswer[] = [];
  for (const row of rows) {
    const { summary } = answerRowOf(row);
    if (!summary) continue;
    const resource = recordPages.get(row.queryHash);
    if (resource === "webhook-groups") {
      if (groupsChange) continue;
      const opened = rememberedAnswer<ListResult<{ id: number; webhooks?: readonly { id: number }[] }>>(summary, answerAad(row.teamId, fingerprint, row.queryHash));
      if (!opened || opened.items.some((group) => holds(group, touched))) continue;
    }
    kept.push({ teamId: row.teamId, queryHash: row.queryHash, head: summary.head });
  }
  return kept;
}

/** Whether a page's group is the record written, or holds it, or is the group a webhook goes to. */
function holds(group: { id: number; webhooks?: readonly { id: number }[] }, touched: WrittenRecord): boolean {
  if (touched.resource === "webhook-groups") return group.id === touched.id;
  if (touched.groupId !== undefined && touched.groupId !== null && group.id === touched.groupId) return true;
  return touched.id !== undefined && (group.webhooks ?? []).some((webhook) => webhook.id === touched.id);
}

/** Key rotation: drops every answer not encrypted under the active key (they are re-fetched on demand). */
export async function dropAnswersUnderOldKeys(db: Pick<PrismaClient, "$executeRaw">): Promise<number> {
  const prefix = `v1:${activeKeyId()}:%`;
  // The results computed from answers (lib/setup/stored-results.ts) too: at most a day's worth, computed again on demand.
  await db.$executeRaw`DELETE FROM "SetupResult" WHERE "ciphertext" NOT LIKE ${prefix}`;
  return db.$executeRaw`DELETE FROM "EmsSharedAnswer" WHERE "ciphertext" IS NOT NULL AND "ciphertext" NOT LIKE ${prefix}`;
}
