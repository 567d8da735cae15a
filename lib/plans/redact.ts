import type { EmsHeader } from "@/lib/ems";
import { maskSecrets } from "@/lib/text/mask-secrets";

export { MASK } from "@/lib/text/mask-secrets";

/**
 * An EMS's refusal may quote what it was sent ("headers: 'sk_live_…' is not allowed"); the step's
 * message is shown on the plan's page, written to the audit log and sent with the team's alerts, so
 * every header value the step holds (its changes, its before-state: a kept value is sent again) is
 * masked in it, in every form a cleaned or shortened quote can take (lib/text/mask-secrets.ts). The
 * writer already masks what it sent in the raw answer (lib/ems/writes.ts); this is the second look.
 */
export type WithHeaders = { headers?: readonly EmsHeader[] | null } | null | undefined;

/** `message` with the header values of `records` (a step's changes, its before-state) masked. */
export function withoutHeaderValues(message: string, ...records: WithHeaders[]): string {
  return maskSecrets(
    message,
    records.flatMap((record) => (record?.headers ?? []).map((header) => header.value)),
  );
}
