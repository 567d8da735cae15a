import { timingSafeEqual, createHash } from "node:crypto";
import type { SandboxAccount } from "../core/config";
import { formatEmsTimestamp } from "../core/clock";
import { MESSAGES, SandboxHttpError, badRequest } from "../core/errors";
import { JSON_CONTENT_TYPE, type SandboxRequest, type SandboxResponse } from "../core/http-types";
import type { BasicCredentialsResult } from "../core/basic-credentials";
import type { TokenSigner } from "../core/tokens";
import { tokenRequestBodySchema } from "./resources";

/** `POST /api/v1/oauth2/token` (docs/ems-api.md §2). Checks run 405, 415, 401, 400 in that order. */
export type TokenContext = {
  signer: TokenSigner;
  now: number;
  lifetimeSeconds: number;
  /** the account whose key and secret the credentials proved (see secretsEqual), if any */
  provenAccount: SandboxAccount | undefined;
};

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** Hashing first makes the comparison constant-time whatever the lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function checkContentType(header: string | undefined): void {
  const [mediaType, ...params] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== FORM_CONTENT_TYPE) {
    throw new SandboxHttpError(415, `Content-Type must be ${FORM_CONTENT_TYPE};charset=UTF-8, not "${header ?? "(none)"}".`);
  }
  const charset = params.find((param) => param.startsWith("charset="));
  if (charset && charset.slice("charset=".length).replace(/"/g, "") !== "utf-8") {
    throw new SandboxHttpError(415, `Only the UTF-8 charset is supported, not "${charset.slice("charset=".length)}".`);
  }
}

function checkBody(body: string): void {
  const entries = [...new URLSearchParams(body)];
  const names = entries.map(([name]) => name);
  const extra = names.filter((name) => name !== "grant_type");
  if (extra.length > 0) {
    throw badRequest(`The body must hold exactly one field, grant_type=client_credentials; unexpected field "${extra[0]}".`);
  }
  if (names.length === 0) throw badRequest("Missing grant_type: the body must be exactly grant_type=client_credentials.");
  if (names.length > 1) throw badRequest("grant_type is given more than once: the body must be exactly grant_type=client_credentials.");
  const parsed = tokenRequestBodySchema.safeParse(Object.fromEntries(entries));
  if (!parsed.success) {
    throw badRequest(`Unsupported grant_type "${entries[0][1]}": only client_credentials is supported.`);
  }
}

export function handleTokenRequest(request: SandboxRequest, credentials: BasicCredentialsResult, context: TokenContext): SandboxResponse {
  if (request.method !== "POST") {
    throw new SandboxHttpError(405, `Method ${request.method} is not allowed here; use POST.`, { allow: "POST" });
  }
  checkContentType(request.headers["content-type"]);
  if (credentials.kind === "missing") throw new SandboxHttpError(401, MESSAGES.missingBasic);
  if (credentials.kind === "malformed") throw new SandboxHttpError(401, MESSAGES.malformedBasic);
  const account = context.provenAccount;
  if (!account) throw new SandboxHttpError(401, MESSAGES.wrongCredentials);
  checkBody(request.body);

  const issued = context.signer.issue(account.key, context.now, context.lifetimeSeconds * 1000);
  return {
    status: 200,
    headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store", pragma: "no-cache" },
    body: JSON.stringify({ access_token: issued.token, type: "bearer", expires_at: formatEmsTimestamp(issued.expiresAt) }),
  };
}
