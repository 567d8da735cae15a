import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "@/lib/db/prisma";
import { budgetWaitMs, recordSpend, type BudgetSpender } from "./budget";
import { getEmsClient } from "./client";
import { SINGLE_CALL_COST, writePath, type WriteOperation } from "./config";
import { markCredentialFailing } from "./credential-state";
import { normalizeBaseUrl, type EmsCredential } from "./credentials";
import {
  CredentialsRejectedError,
  EmsBadRequestError,
  EmsError,
  EmsValidationError,
  InvalidQueryError,
  InvalidResponseError,
  RateLimitedError,
  RecordGoneError,
  UpstreamUnavailableError,
  WriteNotOfferedError,
  WriteOutcomeUnknownError,
  type EmsFieldError,
} from "./errors";
import { backoffDelay, emsHttp, sleep, type EmsHttpResponse } from "./http";
import { emsLog, shortId } from "./log";
import { currentRateLimit, parseRateLimit, recordRateLimit, retryAfterSeconds, type RateLimit } from "./rate-limit";
import { maskSecrets } from "@/lib/text/mask-secrets";
import { apiErrorMessage, cleanApiMessage, parseRecordBody, ResponseShapeError, webhookGroupSchema, webhookSchema, type Webhook, type WebhookGroup } from "./responses";
import { ems, type CachedToken } from "./state";
import { getToken, invalidateToken } from "./token";
import { CIPHERTEXT_HEAD_LENGTH, forgetOpenedAnswersOf } from "./opened-answers";
import { answerAad, answersUnchangedBy, type WrittenRecord } from "./answer-cache";
import type { z } from "zod";
import { WEBHOOK_FIELDS, type SearchCondition } from "./contract";

/**
 * Changing the webhook setup (docs/ems-api.md §8): create, update and delete of webhooks and
 * webhook groups. What sets a write apart from a read:
 *
 * - Never retried blindly. No write is idempotent (§8.1), so after an unclear failure (a timeout, a
 *   network error, a 5xx) the writer first looks: an update or delete reads the record (1 credit),
 *   a create searches for the webhook or group it meant to make (a listing, 10 credits). Only when
 *   the look shows the change was not made does it try again (up to MAX_WRITE_ATTEMPTS); when the
 *   look fails too it stops with WriteOutcomeUnknownError. `checks` in the result says what each
 *   look found.
 * - Typed refusals: a 422 is EmsValidationError with each field's message; a 405, or a 404 on
 *   create, is WriteNotOfferedError; a 404 on update or delete is settled by reading the record
 *   (§4.6): still there, the path is not offered; gone, RecordGoneError.
 * - Every path comes from `writePath()` (lib/ems/config.ts, EMS_WRITE_PATHS).
 * - Budget: 1 credit each (§5), charged to the `write` kind, background work that waits for the
 *   window rather than eat the page views' reserve (lib/ems/budget.ts).
 * - Never through the shared answers, and each attempt drops every stored answer of the credential
 *   (lib/ems/answer-cache.ts), in every team, so no page shows the setup as it was.
 */

export type EmsHeaderInput = { key: string; value: string };
export type EmsCustomFieldInput = { key: string; type: string; value: string };

/** The fields of a webhook a write may send (§8.1). Left out: unchanged (update) or the defaults (create). */
export type WebhookChanges = {
  name?: string;
  url?: string;
  /** null: no group */
  group_id?: number | null;
  trigger_object?: string;
  trigger_on_insert?: boolean;
  trigger_on_update?: boolean;
  trigger_on_delete?: boolean;
  public_user?: boolean;
  admin_user?: boolean;
  api_call?: boolean;
  any_event?: boolean;
  event_ids?: number[];
  enabled?: boolean;
  content_type?: string;
  all_fields?: boolean;
  use_default_fields?: boolean;
  post_field_data?: string[];
  fields?: string[];
  custom_fields?: EmsCustomFieldInput[];
  headers?: EmsHeaderInput[];
  notes?: string | null;
};
export type NewWebhook = WebhookChanges & { name: string; url: string; trigger_object: string };

export type WebhookGroupChanges = { name?: string; notification_emails?: string[]; headers?: EmsHeaderInput[] };
export type NewWebhookGroup = WebhookGroupChanges & { name: string };

export interface WriteOptions {
  signal?: AbortSignal;
  requestId?: string;
  /** Per-attempt timeout; default EMS_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The team the change is made for: its usage record (lib/ems/budget.ts). */
  teamId?: string;
  /** Wait for the rate-limit window (default) rather than throw RateLimitedError. */
  waitForRateLimit?: boolean;
}

/** What a look after an unclear failure found. */
export interface WriteCheck {
  attempt: number;
  /** What went wrong: `ems_timeout`, `ems_unavailable`, or `status 503`. */
  failure: string;
  found: "applied" | "not-applied";
}

export interface WriteResult<T> {
  /** The record after the change (null after a delete). */
  record: T;
  rateLimit: RateLimit | null;
  /** Each unclear failure and what the look after it found; empty when the first answer was clear. */
  checks: WriteCheck[];
}

export interface EmsWriter {
  createWebhook(webhook: NewWebhook, options?: WriteOptions): Promise<WriteResult<Webhook>>;
  updateWebhook(id: number, changes: WebhookChanges, options?: WriteOptions): Promise<WriteResult<Webhook>>;
  deleteWebhook(id: number, options?: WriteOptions): Promise<WriteResult<null>>;
  createWebhookGroup(group: NewWebhookGroup, options?: WriteOptions): Promise<WriteResult<WebhookGroup>>;
  updateWebhookGroup(id: number, changes: WebhookGroupChanges, options?: WriteOptions): Promise<WriteResult<WebhookGroup>>;
  deleteWebhookGroup(id: number, options?: WriteOptions): Promise<WriteResult<null>>;
  /**
   * Whether a write that may have been sent (an applier that stopped mid-step) was made: the same
   * look as after an unclear failure. `since`: when it may have been sent (epoch ms). Throws
   * RecordGoneError when an update's record no longer exists.
   */
  wasApplied(
    operation: WriteOperation,
    target: { id?: number; values?: WebhookChanges | WebhookGroupChanges; since: number },
    options?: WriteOptions,
  ): Promise<{ applied: boolean; record: Webhook | WebhookGroup | null }>;
}

/** Attempts of one write at most: each after the first only once a look showed the change was not made. */
export const MAX_WRITE_ATTEMPTS = 3;
/** A created record found by a look must be at least this recent (EMS clock against ours, minus this margin). */
const CREATED_WITHIN_MS = 5 * 60_000;
/** Rate-limit waits within one write at most. */
const MAX_RATE_LIMIT_WAITS = 5;

// ---- the form encoding (§8.1) -----------------------------------------------------------------

/** The body's fields in the API's own order (§4.1a): every webhook field but those the service sets. */
const SET_BY_THE_SERVICE: ReadonlySet<string> = new Set(["id", "created_at", "created_by", "updated_at", "updated_by"]);
const WEBHOOK_ORDER = WEBHOOK_FIELDS.filter((field) => !SET_BY_THE_SERVICE.has(field)) as readonly (keyof WebhookChanges)[];
const GROUP_ORDER: readonly (keyof WebhookGroupChanges)[] = ["name", "notification_emails", "headers"];

const pair = (key: string, value: string) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;

/**
 * `application/x-www-form-urlencoded` in the framework's bracket form: booleans as `1`/`0`, lists as
 * `event_ids[]=12&event_ids[]=15` in their order, lists of objects as `headers[0][key]=…`, an empty
 * list as the bare name with an empty value (`headers=`, which clears it), null as an empty value.
 * Only the fields given are sent, in a fixed order.
 */
export function encodeWriteBody(values: Record<string, unknown>, order: readonly string[]): string {
  const parts: string[] = [];
  for (const name of order) {
    const value = values[name];
    if (value === undefined) continue;
    if (value === null) parts.push(pair(name, ""));
    else if (typeof value === "boolean") parts.push(pair(name, value ? "1" : "0"));
    else if (Array.isArray(value)) {
      if (value.length === 0) parts.push(pair(name, ""));
      value.forEach((entry: unknown, index) => {
        if (entry !== null && typeof entry === "object") {
          for (const [key, part] of Object.entries(entry as Record<string, unknown>)) parts.push(pair(`${name}[${index}][${key}]`, String(part)));
        } else parts.push(pair(`${name}[]`, String(entry)));
      });
    } else parts.push(pair(name, String(value)));
  }
  return parts.join("&");
}

/** The header values a write body carries (`headers[0][value]=…`): the secrets its answer must not echo. */
export function headerValuesIn(body: string | undefined): string[] {
  if (!body) return [];
  return [...new URLSearchParams(body)].filter(([name]) => /^headers\[\d+\]\[value\]$/.test(name)).map(([, value]) => value);
}

export const encodeWebhookBody = (changes: WebhookChanges) => encodeWriteBody(changes, WEBHOOK_ORDER);
export const encodeWebhookGroupBody = (changes: WebhookGroupChanges) => encodeWriteBody(changes, GROUP_ORDER);

// ---- the writer -------------------------------------------------------------------------------

type Resource = "webhooks" | "webhook-groups";
const WHAT: Record<Resource, { one: string; create: string; update: string; delete: string }> = {
  webhooks: { one: "webhook", create: "creating webhooks", update: "changing webhooks", delete: "deleting webhooks" },
  "webhook-groups": { one: "webhook group", create: "creating webhook groups", update: "changing webhook groups", delete: "deleting webhook groups" },
};

export function getEmsWriter(credential: EmsCredential): EmsWriter {
  if (!credential.fingerprint) throw new Error("getEmsWriter: the credential has no fingerprint (use credentialFingerprint()).");
  const normalized: EmsCredential = { ...credential, baseUrl: normalizeBaseUrl(credential.baseUrl) };
  const writer = new Writer(normalized);
  return {
    createWebhook: (webhook, options = {}) => writer.create("webhooks", webhook, encodeWebhookBody(webhook), options),
    updateWebhook: (id, changes, options = {}) => writer.update("webhooks", id, changes, encodeWebhookBody(changes), options),
    deleteWebhook: (id, options = {}) => writer.remove("webhooks", id, options),
    createWebhookGroup: (group, options = {}) => writer.create("webhook-groups", group, encodeWebhookGroupBody(group), options),
    updateWebhookGroup: (id, changes, options = {}) => writer.update("webhook-groups", id, changes, encodeWebhookGroupBody(changes), options),
    deleteWebhookGroup: (id, options = {}) => writer.remove("webhook-groups", id, options),
    wasApplied: (operation, target, options = {}) => writer.wasApplied(operation, target, options),
  };
}

type Sent = { response: EmsHttpResponse; rateLimit: RateLimit | null } | { unclear: string; error: UpstreamUnavailableError };
type Found<T> = { applied: true; record: T } | { applied: false };

const SCHEMAS = { webhooks: webhookSchema, "webhook-groups": webhookGroupSchema } as const;

function checkId(id: number): void {
  if (!Number.isSafeInteger(id) || id < 1) throw new InvalidQueryError([`a record id is a positive whole number, not ${String(id)}`]);
}

class Writer {
  constructor(private readonly credential: EmsCredential) {}

  private get client() {
    return getEmsClient(this.credential);
  }

  async create<R extends Resource>(resource: R, values: NewWebhook | NewWebhookGroup, body: string, options: WriteOptions): Promise<WriteResult<RecordOf<R>>> {
    const operation: WriteOperation = `${resource}.create`;
    const startedAt = Date.now();
    return this.perform<RecordOf<R>>(
      operation,
      "POST",
      writePath(operation),
      body,
      options,
      {
        answered: (response) => {
          if (response.status === 404 || response.status === 405) throw new WriteNotOfferedError(operation, WHAT[resource].create, response.status);
          return this.readRecord(resource, response);
        },
        look: () => this.findCreated(resource, values, startedAt, options),
      },
      { resource, operation: "create", groupId: resource === "webhooks" ? (values as NewWebhook).group_id : undefined },
    );
  }

  async update<R extends Resource>(
    resource: R,
    id: number,
    changes: WebhookChanges | WebhookGroupChanges,
    body: string,
    options: WriteOptions,
  ): Promise<WriteResult<RecordOf<R>>> {
    checkId(id);
    const operation: WriteOperation = `${resource}.update`;
    return this.perform<RecordOf<R>>(
      operation,
      "PUT",
      writePath(operation, id),
      body,
      options,
      {
        answered: async (response) => {
          if (response.status === 405) throw new WriteNotOfferedError(operation, WHAT[resource].update, 405);
          if (response.status === 404) throw await this.settleNotFound(resource, id, operation, options);
          return this.readRecord(resource, response);
        },
        look: async () => {
          const record = await this.readBack(resource, id, options);
          if (!record) throw new RecordGoneError(WHAT[resource].one, id);
          return holdsChanges(record, changes) ? { applied: true, record } : { applied: false };
        },
      },
      { resource, operation: "update", id, groupId: resource === "webhooks" ? (changes as WebhookChanges).group_id : undefined },
    );
  }

  async remove(resource: Resource, id: number, options: WriteOptions): Promise<WriteResult<null>> {
    checkId(id);
    const operation: WriteOperation = `${resource}.delete`;
    return this.perform<null>(
      operation,
      "DELETE",
      writePath(operation, id),
      undefined,
      options,
      {
        answered: async (response) => {
          if (response.status === 405) throw new WriteNotOfferedError(operation, WHAT[resource].delete, 405);
          if (response.status === 404) throw await this.settleNotFound(resource, id, operation, options);
          return null;
        },
        look: async () => ((await this.readBack(resource, id, options)) === null ? { applied: true, record: null } : { applied: false }),
      },
      { resource, operation: "delete", id },
    );
  }

  async wasApplied(
    operation: WriteOperation,
    target: { id?: number; values?: WebhookChanges | WebhookGroupChanges; since: number },
    options: WriteOptions,
  ): Promise<{ applied: boolean; record: Webhook | WebhookGroup | null }> {
    const [resource, op] = operation.split(".") as [Resource, "create" | "update" | "delete"];
    if (op === "create") {
      const found = await this.findCreated(resource, (target.values ?? {}) as NewWebhook, target.since, options);
      return found.applied ? { applied: true, record: found.record } : { applied: false, record: null };
    }
    checkId(target.id ?? 0);
    const record = await this.readBack(resource, target.id!, options);
    if (op === "delete") return { applied: record === null, record };
    if (!record) throw new RecordGoneError(WHAT[resource].one, target.id!);
    return { applied: holdsChanges(record, target.values ?? {}), record };
  }

  /**
   * Sends the write; a clear answer goes to `answered` (2xx and 4xx; the typed refusals are thrown
   * here), an unclear one to `look`, and only a look that found nothing leads to another attempt.
   */
  private async perform<T>(
    operation: WriteOperation,
    method: "POST" | "PUT" | "DELETE",
    path: string,
    body: string | undefined,
    options: WriteOptions,
    steps: { answered: (response: EmsHttpResponse) => T | Promise<T>; look: () => Promise<Found<T>> },
    touched: WrittenRecord,
  ): Promise<WriteResult<T>> {
    const requestId = options.requestId ?? randomUUID();
    const scoped: WriteOptions = { ...options, requestId };
    const { fingerprint } = this.credential;
    const checks: WriteCheck[] = [];
    for (let attempt = 1; ; attempt++) {
      let sent: Sent;
      try {
        sent = await this.send(method, path, body, scoped);
      } finally {
        // Whatever the answer, the setup may have changed: no page may keep showing it as it was.
        await forgetAnswersOf(fingerprint, touched);
      }
      if ("response" in sent && sent.response.status < 500) {
        const { response, rateLimit } = sent;
        // A refusal may quote what it was sent: the header values are masked in the raw answer, before it is parsed or cleaned.
        const refusal = () => maskSecrets(response.bodyText, headerValuesIn(body));
        if (response.status === 422) throw new EmsValidationError(fieldErrorsOf(refusal()));
        if (response.status >= 400 && response.status !== 404 && response.status !== 405) {
          throw new EmsBadRequestError(apiErrorMessage(refusal()) ?? `the API answered ${response.status}`, response.status);
        }
        const record = await steps.answered(response);
        emsLog("info", "ems.write", { requestId, fingerprint: shortId(fingerprint), operation, status: response.status, attempt });
        return { record, rateLimit, checks };
      }
      const failure = "response" in sent ? `status ${sent.response.status}` : sent.unclear;
      let found: Found<T>;
      try {
        found = await steps.look();
      } catch (error) {
        if (error instanceof RecordGoneError) throw error;
        emsLog("warn", "ems.write_outcome_unknown", {
          requestId,
          fingerprint: shortId(fingerprint),
          operation,
          attempt,
          failure,
          errorName: error instanceof Error ? error.name : "Error",
        });
        throw new WriteOutcomeUnknownError(`${operation}: ${failure}, then the check failed`, error);
      }
      checks.push({ attempt, failure, found: found.applied ? "applied" : "not-applied" });
      emsLog("warn", "ems.write_checked", {
        requestId,
        fingerprint: shortId(fingerprint),
        operation,
        attempt,
        failure,
        found: found.applied ? "applied" : "not-applied",
      });
      if (found.applied) return { record: found.record, rateLimit: currentRateLimit(fingerprint), checks };
      if (attempt >= MAX_WRITE_ATTEMPTS) {
        const timedOut = "error" in sent && sent.error.code === "ems_timeout";
        throw new UpstreamUnavailableError(`${operation}: ${failure} on each of ${attempt} attempts; each check found the change not made`, { timedOut });
      }
      await sleep(backoffDelay(attempt - 1), options.signal);
    }
  }

  /**
   * One authorized request, never retried on 5xx or a timeout (the caller looks first): waits out
   * the page views' reserve and the rate limit, renews the token once on a 401 (a refused token
   * changed nothing). Returns the answer, or the unclear failure.
   */
  private async send(method: "POST" | "PUT" | "DELETE", path: string, body: string | undefined, options: WriteOptions): Promise<Sent> {
    const { fingerprint } = this.credential;
    const spender: BudgetSpender = { kind: "write", teamId: options.teamId };
    const wait = options.waitForRateLimit ?? true;
    let refused: CachedToken | undefined;
    let waits = 0;
    const pause = async (seconds: number, detail: string, rateLimit: RateLimit | null) => {
      if (!wait || waits++ >= MAX_RATE_LIMIT_WAITS) throw new RateLimitedError(seconds, detail, rateLimit);
      emsLog("info", "ems.rate_limit_wait", { requestId: options.requestId, seconds, detail });
      await sleep(seconds * 1000 + Math.random() * 250, options.signal);
    };
    for (;;) {
      // A write is background work: it waits for the window rather than eat the page views' reserve.
      const paceMs = budgetWaitMs(spender.kind, currentRateLimit(fingerprint), SINGLE_CALL_COST);
      if (paceMs > 0) {
        await pause(Math.max(1, Math.ceil(paceMs / 1000)), "write: the rest of the window is kept for page views", currentRateLimit(fingerprint));
        continue;
      }
      let token: CachedToken;
      try {
        token = await getToken(this.credential, { signal: options.signal, requestId: options.requestId, rejected: refused?.value });
      } catch (error) {
        if (error instanceof RateLimitedError) {
          await pause(error.retryAfterSeconds, "token endpoint rate limited", error.rateLimit);
          continue;
        }
        throw error;
      }
      let response: EmsHttpResponse;
      try {
        response = await emsHttp({
          method,
          url: `${this.credential.baseUrl}${path}`,
          path,
          headers: {
            Authorization: `Bearer ${token.value}`,
            Accept: "application/json",
            ...(body === undefined ? {} : { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" }),
          },
          body,
          signal: options.signal,
          requestId: options.requestId!,
          fingerprint: shortId(fingerprint),
          retry: false,
          timeoutMs: options.timeoutMs,
        });
      } catch (error) {
        // No answer: the request may or may not have reached the EMS. It cost a credit if it did.
        if (error instanceof UpstreamUnavailableError) {
          recordSpend(fingerprint, spender, SINGLE_CALL_COST);
          return { unclear: error.code, error };
        }
        throw error;
      }
      const rateLimit = parseRateLimit(response.headers, response.receivedAt);
      if (rateLimit) recordRateLimit(fingerprint, rateLimit, response.receivedAt);
      if (response.status !== 429) recordSpend(fingerprint, spender, SINGLE_CALL_COST, response.receivedAt);
      if (response.status === 401) {
        await invalidateToken(fingerprint, token);
        if (!refused) {
          refused = token;
          continue;
        }
        const reason = "The EMS API refused a newly issued token as well (401 twice in a row).";
        await markCredentialFailing(fingerprint, reason);
        throw new CredentialsRejectedError(reason);
      }
      if (response.status === 429) {
        // A 429 changed nothing: waiting and sending again is safe.
        await pause(retryAfterSeconds(response.headers, response.receivedAt), "API answered 429", rateLimit ?? currentRateLimit(fingerprint));
        continue;
      }
      return { response, rateLimit };
    }
  }

  private readRecord<R extends Resource>(resource: R, response: EmsHttpResponse): RecordOf<R> {
    let body: unknown;
    try {
      body = JSON.parse(response.bodyText);
    } catch {
      throw new InvalidResponseError(`${resource} write answered ${response.status} with a body that is not JSON`, response.status);
    }
    try {
      return parseRecordBody(body, SCHEMAS[resource] as unknown as z.ZodType<RecordOf<R>>);
    } catch (error) {
      if (error instanceof ResponseShapeError) throw new InvalidResponseError(`${resource} write: ${error.message}`, response.status);
      throw error;
    }
  }

  /** One record as the EMS holds it now (1 credit, never a shared answer), or null when it answers 404. */
  private async readBack<R extends Resource>(resource: R, id: number, options: WriteOptions): Promise<RecordOf<R> | null> {
    const { item } = await this.client.getOne(resource, id, {}, { ...this.readOptions(options) });
    return item as RecordOf<R> | null;
  }

  private readOptions(options: WriteOptions) {
    return {
      signal: options.signal,
      requestId: options.requestId,
      timeoutMs: options.timeoutMs,
      waitForRateLimit: options.waitForRateLimit ?? true,
      budget: { kind: "write" as const, teamId: options.teamId },
    };
  }

  /** A 404 on update or delete: the record still there means the path is not offered; gone, it was deleted (§8). */
  private async settleNotFound(resource: Resource, id: number, operation: WriteOperation, options: WriteOptions): Promise<EmsError> {
    const record = await this.readBack(resource, id, options);
    return record
      ? new WriteNotOfferedError(operation, operation.endsWith("update") ? WHAT[resource].update : WHAT[resource].delete, 404)
      : new RecordGoneError(WHAT[resource].one, id);
  }

  /**
   * The record a create whose answer was lost may have made: the newest records with its name (and
   * group), compared field by field, made within CREATED_WITHIN_MS of the attempt (EMS time).
   */
  private async findCreated<R extends Resource>(
    resource: R,
    values: NewWebhook | NewWebhookGroup,
    startedAt: number,
    options: WriteOptions,
  ): Promise<Found<RecordOf<R>>> {
    const search: SearchCondition[] = [];
    const webhook = resource === "webhooks" ? (values as NewWebhook) : null;
    if (webhook?.group_id) search.push({ field: "group_id", operator: "=", value: String(webhook.group_id) });
    // The name narrows the search when the listing language can carry it (no `&`, no leading `*word*`).
    const byName = [...search, { field: "name", operator: "=" as const, value: values.name }];
    const query = { sort: [{ field: "id" as const, direction: "desc" as const }], perPage: 50 };
    let items: RecordOf<R>[];
    try {
      items = (await this.client.list(resource, { ...query, search: byName } as never, this.readOptions(options))).items as RecordOf<R>[];
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) throw error;
      items = (await this.client.list(resource, { ...query, search } as never, this.readOptions(options))).items as RecordOf<R>[];
    }
    const since = startedAt - CREATED_WITHIN_MS;
    const match = items.find((item) => {
      const record = item as Webhook & WebhookGroup;
      if (record.name !== values.name) return false;
      const stamp = resource === "webhooks" ? record.created_at : record.updated_at;
      if (stamp && Date.parse(`${stamp.replace(" ", "T")}Z`) < since) return false;
      if (webhook) return record.url === webhook.url && (record.group_id ?? null) === (webhook.group_id ?? null) && holdsChanges(record, webhook);
      return holdsChanges(record, values);
    });
    return match ? { applied: true, record: match } : { applied: false };
  }
}

type RecordOf<R extends Resource> = R extends "webhooks" ? Webhook : WebhookGroup;

/** Whether the record holds every value of `changes` (lists in order, headers with their values). */
function holdsChanges(record: object, changes: object): boolean {
  const held = record as Record<string, unknown>;
  return Object.entries(changes).every(([field, value]) => value === undefined || JSON.stringify(normalize(held[field])) === JSON.stringify(normalize(value)));
}

function normalize(value: unknown): unknown {
  if (value === undefined || value === "") return null;
  if (Array.isArray(value))
    return value.map((entry) => (entry !== null && typeof entry === "object" ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1))) : entry));
  return value;
}

/** A 422's `[{field, message}]` (§6), each message cleaned; a body of another shape becomes one message. */
function fieldErrorsOf(bodyText: string): EmsFieldError[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [{ field: "", message: "The EMS refused the change (422) without saying why." }];
  }
  if (Array.isArray(body)) {
    const errors = body
      .filter((entry): entry is { field?: unknown; message?: unknown } => entry !== null && typeof entry === "object")
      .map((entry) => ({
        field: typeof entry.field === "string" ? (cleanApiMessage(entry.field) ?? "") : "",
        message: cleanApiMessage(typeof entry.message === "string" ? entry.message : ""),
      }))
      .filter((entry): entry is EmsFieldError => entry.message !== null);
    if (errors.length) return errors;
  }
  return [{ field: "", message: apiErrorMessage(bodyText) ?? "The EMS refused the change (422)." }];
}

/**
 * Drops what the portal keeps of the credential's answers, in every team: the stored shared answers
 * (an in-flight read then stores nothing: its lease went with the row) and this process's shared
 * flights, so a page asked after the write reads the EMS again.
 */
export async function forgetAnswersOf(fingerprint: string, touched?: WrittenRecord): Promise<void> {
  for (const key of ems.answerFlights.keys()) if (key.split("\n")[1] === fingerprint) ems.answerFlights.delete(key);
  // What the write cannot have changed stays: the setup's pages that do not hold the record.
  const kept = touched
    ? await answersUnchangedBy(prisma, fingerprint, touched).catch((error: unknown) => {
        // Then everything goes, as it always did.
        emsLog("warn", "ems.kept_answers_unknown", { fingerprint: shortId(fingerprint), errorName: error instanceof Error ? error.name : "Error" });
        return [];
      })
    : [];
  // The AAD of a shared answer is "EmsSharedAnswer:<team>:<fingerprint>:<hash>:ciphertext".
  forgetOpenedAnswersOf(`:${fingerprint}:`, new Set(kept.map((answer) => answerAad(answer.teamId, fingerprint, answer.queryHash))));
  // A kept row stays only as it was looked at: one stored anew meanwhile (by a read started before the write) goes.
  const keys = kept.map((answer) => `${answer.teamId}\n${answer.queryHash}\n${answer.head}`);
  await prisma.$executeRaw`
    DELETE FROM "EmsSharedAnswer"
    WHERE "fingerprint" = ${fingerprint}
      AND NOT (COALESCE("teamId" || E'\n' || "queryHash" || E'\n' || substr("ciphertext", 1, ${CIPHERTEXT_HEAD_LENGTH}), '') = ANY(${keys}::text[]))`;
}
