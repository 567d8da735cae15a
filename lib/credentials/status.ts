/**
 * One status for saved credentials, from their last check: a connection test, the check before
 * saving, or a page's call the EMS refused (lib/credentials/store.ts gathers them).
 */
export type CredentialStatusKind = "connected" | "rejected" | "unreachable" | "failing" | "unchecked";

export interface CredentialStatus {
  kind: CredentialStatusKind;
  label: string;
  /** When the last check happened; null when never. */
  checkedAt: Date | null;
  /** What went wrong, in words, when the last check failed. */
  message: string | null;
}

const LABELS: Record<CredentialStatusKind, string> = {
  connected: "Connected",
  rejected: "Rejected",
  unreachable: "Unreachable",
  failing: "Failing",
  unchecked: "Not checked yet",
};

/** EMS error codes (lib/ems/errors.ts) of an API that did not answer, or could not be reached. */
const UNREACHABLE_CODES = new Set(["ems_timeout", "ems_unavailable", "ems_blocked_destination", "ems_redirect"]);

export function credentialStatus(check: {
  lastVerifiedAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  lastErrorCode: string | null;
}): CredentialStatus {
  const { lastVerifiedAt, lastErrorAt, lastError, lastErrorCode } = check;
  if (lastErrorAt && (!lastVerifiedAt || lastErrorAt > lastVerifiedAt)) {
    const kind: CredentialStatusKind =
      lastErrorCode === "ems_credentials_rejected" ? "rejected" : lastErrorCode && UNREACHABLE_CODES.has(lastErrorCode) ? "unreachable" : "failing";
    return { kind, label: LABELS[kind], checkedAt: lastErrorAt, message: lastError };
  }
  if (lastVerifiedAt) return { kind: "connected", label: LABELS.connected, checkedAt: lastVerifiedAt, message: null };
  return { kind: "unchecked", label: LABELS.unchecked, checkedAt: null, message: null };
}
