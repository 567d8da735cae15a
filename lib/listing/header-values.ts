import type { Webhook, WebhookGroup } from "@/lib/ems";

/**
 * Webhook header values often hold credentials (Authorization, API keys). Pages carry header names
 * only, and "Reveal" asks for one value (after a recent re-authentication, audited); an export
 * writes them only when the person ticks "Include header values", which
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
      webhook !== null && typeof webhook === "object" && "headers" in webhook
        ? { ...(webhook as object), headers: maskHeaders((webhook as { headers: unknown }).headers) }
        : webhook,
    );
  }
  return copy;
}

/** A header as a page holds it: its name, never its value. */
export type HeaderName = { key: string };
export type WebhookForPage = Omit<Webhook, "headers"> & { headers?: HeaderName[] };
export type GroupForPage = Omit<WebhookGroup, "headers" | "webhooks"> & { headers?: HeaderName[]; webhooks?: WebhookForPage[] };

function headerNames(headers: readonly { key: string }[] | undefined): HeaderName[] | undefined {
  return headers?.map((header) => ({ key: header.key }));
}

/**
 * A group as its page may hold it: every header, the group's and its webhooks', reduced to its name.
 * Whatever a server component renders goes out in the HTML and the RSC payload, so the values are
 * dropped before rendering starts; "Reveal" asks for one value at a time (lib/actions/webhooks).
 */
export function withoutHeaderValues(group: WebhookGroup): GroupForPage {
  const { headers, webhooks, ...rest } = group;
  return {
    ...rest,
    ...(headers === undefined ? {} : { headers: headerNames(headers) }),
    ...(webhooks === undefined
      ? {}
      : { webhooks: webhooks.map(({ headers: hookHeaders, ...hook }) => ({ ...hook, ...(hookHeaders === undefined ? {} : { headers: headerNames(hookHeaders) }) })) }),
  };
}

/** A webhook as its own page may hold it: its headers by name only. */
export function withoutWebhookHeaderValues(webhook: Webhook): WebhookForPage {
  const { headers, ...rest } = webhook;
  return { ...rest, ...(headers === undefined ? {} : { headers: headerNames(headers) }) };
}
