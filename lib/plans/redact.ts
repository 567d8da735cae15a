import type { EmsHeader } from "@/lib/ems";

/**
 * An EMS's refusal may quote what it was sent ("headers: 'sk_live_…' is not allowed"); the step's
 * message is shown on the plan's page, written to the audit log and sent with the team's alerts, so
 * every header value the step holds is masked in it first. Values shorter than this are left: masking
 * "1" would garble the message, and a value that short is no secret.
 */
const MIN_MASKED_LENGTH = 4;
export const MASK = "•••";

export type WithHeaders = { headers?: readonly EmsHeader[] | null } | null | undefined;

/** `message` with the header values of `records` (a step's changes, its before-state) masked. */
export function withoutHeaderValues(message: string, ...records: WithHeaders[]): string {
  const values = new Set<string>();
  for (const record of records) for (const header of record?.headers ?? []) if (header.value.length >= MIN_MASKED_LENGTH) values.add(header.value);
  // The longest first: a value that contains another is masked whole.
  let masked = message;
  for (const value of [...values].sort((a, b) => b.length - a.length)) masked = masked.split(value).join(MASK);
  return masked;
}
