/**
 * What proxy.ts refuses before a write reaches a page (where Next.js runs server actions), so a
 * refused request answers 4xx instead of the 500 Next.js 16 gives it:
 *
 * - a cross-site write: an `Origin` that is not the host the request came to. Next.js compares the
 *   same two values (`x-forwarded-host`, else `host`) and, when they differ, aborts the action and
 *   answers 500; here it is a 403 before anything runs.
 * - an action body Next.js cannot decode: a multipart body that is not multipart, or an envelope
 *   that is not the JSON React's encodeReply writes (the argument list at the root). Next.js
 *   throws while decoding and answers 500; here it is a 400. Only the envelope is checked (the
 *   JSON at the root), never the action's fields: the pipeline (lib/actions/pipeline.ts) does that.
 * - any write's body past the portal's limit (lib/security/request-body.ts, the same number as
 *   Next.js's `serverActions.bodySizeLimit`): 413, counted on the bytes read, whatever the headers say.
 *
 * An unknown `Next-Action` id is left to Next.js, which already answers 400 (not an id) or 409
 * (an id of no action in this build: a page older than the deployment).
 */

import { readBodyWithin } from "./request-body";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type Refusal = { status: 400 | 403 | 413; message: string };

/** The host a browser's `Origin` must name: the one Next.js compares it with. */
function requestHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || headers.get("host");
}

/** A write (POST, PUT, PATCH, DELETE) whose Origin is another site's. Requests without Origin pass, as in Next.js: browsers always send it on a write. */
export function foreignOriginRefusal(method: string, headers: Headers): Refusal | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const origin = headers.get("origin");
  if (origin === null) return null;
  let originHost: string;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    originHost = "";
  }
  if (originHost !== "" && originHost === requestHost(headers)) return null;
  return { status: 403, message: "This form was sent from another site, so it was refused. Open the portal and send it from there." };
}

export const TOO_LARGE: Refusal = { status: 413, message: "This request is too large: at most 1 MB may be sent." };

/**
 * Reads the body of a write (the proxy gets a copy: the page or route still gets the original),
 * counting its bytes. A refusal past the limit; otherwise the bytes (empty for a read).
 */
export async function writeBody(request: Request): Promise<Refusal | Uint8Array<ArrayBuffer>> {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return new Uint8Array(0);
  const body = await readBodyWithin(request);
  return body.kind === "too-large" ? TOO_LARGE : body.bytes;
}

/** True when the body of this request may be a server action's (what Next.js would try to decode). */
export function mayBeActionRequest(method: string, headers: Headers): boolean {
  if (method.toUpperCase() !== "POST") return false;
  const type = headers.get("content-type") ?? "";
  return headers.has("next-action") || type.toLowerCase().startsWith("multipart/form-data");
}

const MALFORMED: Refusal = { status: 400, message: "The form could not be read. Reload the page and send it again." };

function isJsonArray(text: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

function isJson(text: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that Next.js can decode a possible server action's body (read by writeBody). Call only
 * when mayBeActionRequest(). Null when it may go on.
 */
export async function malformedActionRefusal(request: Request, body: Uint8Array<ArrayBuffer>): Promise<Refusal | null> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const isFetchAction = request.headers.has("next-action");

  if (type.startsWith("multipart/form-data")) {
    if (!/;\s*boundary=/.test(type)) return MALFORMED;
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
    } catch {
      return MALFORMED;
    }
    // A fetch action: the argument list at "0". A form posted without JavaScript: each bound
    // action's arguments at "$ACTION_<n>:0".
    if (isFetchAction && !isJsonArray(form.get("0"))) return MALFORMED;
    for (const [key, value] of form.entries()) {
      if (/^\$ACTION_\d+:0$/.test(key) && !isJson(value)) return MALFORMED;
    }
    return null;
  }
  // Next.js reads any other body of a fetch action as the JSON of its argument list (a URL-encoded
  // one it refuses itself).
  if (isFetchAction && type !== "application/x-www-form-urlencoded") {
    if (!isJsonArray(new TextDecoder().decode(body))) return MALFORMED;
  }
  return null;
}
