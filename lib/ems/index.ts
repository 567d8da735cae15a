import "server-only";

/** The EMS client: the only code that talks to the EMS API or holds its tokens. */
export { getEmsClient } from "./client";
export { encodeWebhookBody, encodeWebhookGroupBody, getEmsWriter, MAX_WRITE_ATTEMPTS } from "./writes";
export type { EmsWriter, NewWebhook, NewWebhookGroup, WebhookChanges, WebhookGroupChanges, WriteCheck, WriteOptions, WriteResult } from "./writes";
export type { CallOptions, EmsClient, ItemFor, ListResult, RecordResult } from "./client";
export { credentialFingerprint, normalizeBaseUrl, basicAuthorization, encodeCredentialPart } from "./credentials";
export type { EmsCredential } from "./credentials";
export {
  BlockedDestinationError,
  CredentialsRejectedError,
  EmsBadRequestError,
  EmsError,
  EmsValidationError,
  RecordGoneError,
  WriteNotOfferedError,
  WriteOutcomeUnknownError,
  InvalidBaseUrlError,
  InvalidQueryError,
  InvalidResponseError,
  isEmsError,
  RateLimitedError,
  RedirectRefusedError,
  UpstreamUnavailableError,
} from "./errors";
export type { EmsFieldError } from "./errors";
export { credentialStateIfReadable, dropCredentialState, forgetCredential, getCredentialState } from "./credential-state";
export type { CredentialState } from "./credential-state";
export { tokenCacheAad } from "./token-cache";
export { reencryptCachedTokens } from "./token-reencryption";
export type { TokenReencryptionCounts, TokenReencryptionOptions } from "./token-reencryption";
export type { RateLimit } from "./rate-limit";
export { currentRateLimit } from "./rate-limit";
export type { CiphertextSummary } from "./opened-answers";
export { answerCache, canonicalQuery, canonicalRecord, declareRecordPages, dropAnswersUnderOldKeys, dropSharedAnswers, peekForUserQuery } from "./answer-cache";
export type { LookedAnswer, PeekColumns, PeekedAnswer, SharedAnswer, SharedListOptions, SharedRecord } from "./answer-cache";
export { BUDGET_KIND_LABELS, BUDGET_KINDS, flushBudgetUsage, isBudgetLow, reservedCredits, usageByKind } from "./budget";
export type { BudgetKind, BudgetSpender, KindUsage } from "./budget";
export { flushEmsState } from "./lifecycle";
export { DEFAULT_WRITE_PATHS, emsConfig, LISTING_COST, reloadEmsConfig, writePath } from "./config";
export type { WriteOperation } from "./config";
export * from "./contract";
export * from "./query";
export type { EmsEvent, EmsHeader, ListMeta, Webhook, WebhookGroup } from "./responses";
