/**
 * Webhook header values often hold credentials (Authorization, API keys). The tables hide them
 * behind "Reveal"; an export writes them only when the person ticks "Include header values", which
 * is recorded in the audit log (app/api/export). Otherwise each value is replaced by HIDDEN_VALUE:
 * the header names stay, so the file still says which groups send which headers.
 */
export const HIDDEN_VALUE = "[hidden]";

/** `[{ key, value }]` (what lib/ems's parser gives) or, defensively, `{ name: value }`. */
function maskHeaders(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    return headers.map((header: unknown) =>
      header !== null && typeof header === "object" ? { ...(header as object), ...("value" in header ? { value: HIDDEN_VALUE } : {}) } : HIDDEN_VALUE,
    );
  }
  if (headers !== null && typeof headers === "object") {
    return Object.fromEntries(Object.keys(headers).map((name) => [name, HIDDEN_VALUE]));
  }
  return headers === null || headers === undefined || headers === "" ? headers : HIDDEN_VALUE;
}

/** A copy of a webhook group with the values of its headers, and of its webhooks' headers, hidden. */
export function withHeaderValuesHidden(item: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item };
  if ("headers" in copy) copy.headers = maskHeaders(copy.headers);
  if (Array.isArray(copy.webhooks)) {
    copy.webhooks = copy.webhooks.map((webhook: unknown) =>
      webhook !== null && typeof webhook === "object" && "headers" in webhook ? { ...(webhook as object), headers: maskHeaders((webhook as { headers: unknown }).headers) } : webhook,
    );
  }
  return copy;
}
