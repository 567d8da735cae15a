import "server-only";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { untilAborted } from "@/lib/promises";
import {
  addressRange,
  bareHost,
  checkDestination,
  checkMailDestination,
  destinationPolicy,
  refusalForAddresses,
  type DestinationCheck,
  type DestinationPolicy,
  type MailDestinationPolicy,
  type Refusal,
} from "./destination";
import { BlockedDestinationError, InvalidResponseError, RedirectRefusedError } from "./errors";

/**
 * The outbound door: the only place the portal opens an HTTP connection: to an EMS API (token and
 * listing requests alike, through lib/ems/http.ts `emsHttp`), and to a team's alert webhook
 * (lib/alerts, with `alertDestinationPolicy`). For each request it
 * 1. checks the URL against the destination policy (lib/ems/destination.ts; the EMS's by default),
 * 2. resolves the host once, through `resolveHost` (replaceable in tests), and checks every address,
 * 3. connects to the checked address itself (the socket's host is the IP; the name travels only in
 *    the Host header and, over HTTPS, in SNI and the certificate check), so DNS cannot answer
 *    differently between the check and the connection (rebinding),
 * 4. follows no redirect: a 3xx is RedirectRefusedError.
 * A refusal is BlockedDestinationError, thrown before anything is sent.
 *
 * Mail is the one other kind of connection: lib/mail/send.ts opens it (nodemailer speaks SMTP), after
 * `admitMailServer` here has checked the server by the same rules and resolved it the same way.
 */

export type ResolvedAddress = { address: string; family: number };
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });
let resolveHost: HostResolver = systemResolver;

/** Tests: answer host names without DNS (`null` puts the system's resolver back). Returns the one it replaced. */
export function setHostResolver(resolver: HostResolver | null): HostResolver {
  const previous = resolveHost;
  resolveHost = resolver ?? systemResolver;
  return previous;
}

/** Idle keep-alive sockets are closed before a typical server's 5 s keep-alive timeout would close them under a request. */
const IDLE_SOCKET_MS = 4_000;
const AGENTS: { "http:": http.Agent; "https:": https.Agent } = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/** Tests: trust only these certificates (PEM) over HTTPS; `null` goes back to Node's trusted roots. */
export function setTrustedCertificates(ca: string | null): void {
  AGENTS["https:"].destroy();
  AGENTS["https:"] = new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, ...(ca ? { ca } : {}) });
}

/** Far above any listing page (200 items); an answer larger than this, compressed or not, is refused. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface OutboundRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts resolution, connection and reading at once. */
  signal: AbortSignal;
  /** Where it may go: the EMS policy from the environment unless given (alerts pass `alertDestinationPolicy()`). */
  policy?: DestinationPolicy;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

/** How long saving waits for DNS before it gives up on the check (the calls check anyway). */
const SAVE_RESOLVE_TIMEOUT_MS = 3_000;

type Admission = { ok: true; addresses: string[] } | { ok: false; refusal: Refusal; addresses: string[] };

/** The policy's verdict on a URL, with its host resolved (once) when it is a name. Throws on DNS failure. */
async function admit(url: URL, signal: AbortSignal | undefined, policy: DestinationPolicy = destinationPolicy()): Promise<Admission> {
  return admitChecked(url, checkDestination(url, policy), signal);
}

async function admitChecked(url: URL, checked: DestinationCheck, signal: AbortSignal | undefined): Promise<Admission> {
  if (!checked.ok) return { ok: false, refusal: checked.refusal, addresses: [] };
  const host = bareHost(url);
  const addresses = isIP(host) ? [host] : (await untilAborted(resolveHost(host), signal)).map((entry) => entry.address);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" });
  const refusal = refusalForAddresses(checked.kind, addresses);
  return refusal ? { ok: false, refusal, addresses } : { ok: true, addresses };
}

/**
 * When credentials are saved: the refusal for a base URL whose host resolves to an address the
 * policy refuses, or null. A host that does not resolve right now (or within 3 s) is not refused
 * here: every call checks again before it connects. `policy`: the EMS policy unless given (an alert
 * webhook's URL is checked with `alertDestinationPolicy()`).
 */
export async function refusalForBaseUrl(baseUrl: string, policy?: DestinationPolicy): Promise<Refusal | null> {
  try {
    const admission = await admit(new URL(baseUrl), AbortSignal.timeout(SAVE_RESOLVE_TIMEOUT_MS), policy);
    return admission.ok ? null : admission.refusal;
  } catch {
    return null;
  }
}

/**
 * The SMTP side of the door: the mail server's URL checked by the mail policy (lib/ems/destination.ts
 * `checkMailDestination`), its host resolved once through this door's resolver and every address
 * checked. Returns the addresses to connect to: the caller connects to one of them, never to the name
 * again (which then travels only in TLS's SNI and certificate check), so DNS cannot answer differently
 * between the check and the connection. Throws BlockedDestinationError, or the resolver's error.
 */
export async function admitMailServer(url: URL, policy: MailDestinationPolicy, signal: AbortSignal): Promise<string[]> {
  const admission = await admitChecked(url, checkMailDestination(url, policy), signal);
  if (!admission.ok) {
    const addresses = admission.addresses.map((address) => `${address} (${addressRange(address)})`).join(", ");
    throw new BlockedDestinationError(admission.refusal.message, {
      reason: admission.refusal.reason,
      detail: `mail server ${url.hostname} refused: ${admission.refusal.reason}${addresses ? `; resolves to ${addresses}` : ""}`,
    });
  }
  return admission.addresses;
}

/**
 * One HTTP exchange through the door. Throws BlockedDestinationError (nothing sent),
 * RedirectRefusedError, InvalidResponseError (an answer too large or wrongly encoded), or the
 * network's error (DNS failure, refused connection, reset, abort) for the caller to retry or not.
 */
export async function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const url = new URL(request.url);
  const admission = await admit(url, request.signal, request.policy);
  if (!admission.ok) {
    const addresses = admission.addresses.map((address) => `${address} (${addressRange(address)})`).join(", ");
    throw new BlockedDestinationError(admission.refusal.message, {
      reason: admission.refusal.reason,
      detail: `${url.origin} refused: ${admission.refusal.reason}${addresses ? `; resolves to ${addresses}` : ""}`,
    });
  }
  const response = await sendToFirstReachable(url, admission.addresses, request);
  if (response.status >= 300 && response.status < 400) {
    throw new RedirectRefusedError(`${url.origin} answered ${response.status} to ${originOf(response.headers.get("location"), url)}`, response.status);
  }
  return response;
}

/** Tries the checked addresses in order while the connection itself fails (refused, unreachable). */
async function sendToFirstReachable(url: URL, addresses: string[], request: OutboundRequest): Promise<OutboundResponse> {
  for (let index = 0; ; index++) {
    try {
      return await send(url, addresses[index], request, true);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      const connectionFailed = ["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"].includes(code);
      if (!connectionFailed || index + 1 >= addresses.length || request.signal.aborted) throw error;
    }
  }
}

function send(url: URL, address: string, request: OutboundRequest, mayRetryStaleSocket: boolean): Promise<OutboundResponse> {
  const secure = url.protocol === "https:";
  const host = bareHost(url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = (secure ? https : http).request(
      {
        host: address,
        port: url.port || (secure ? 443 : 80),
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: {
          ...request.headers,
          Host: url.host,
          "Accept-Encoding": "gzip, deflate, br",
          ...(body ? { "Content-Length": String(body.length) } : {}),
        },
        agent: AGENTS[secure ? "https:" : "http:"],
        // The certificate is checked against the host name, not the address connected to.
        ...(secure && !isIP(host) ? { servername: host } : {}),
        signal: request.signal,
      },
      (incoming) => {
        answered = true;
        readBody(incoming).then((bodyText) => resolve({ status: incoming.statusCode ?? 0, headers: headersOf(incoming.rawHeaders), bodyText }), reject);
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed just as it was reused: once more on a fresh one
      // (what Node's documentation recommends; the request never reached the server).
      if (!answered && mayRetryStaleSocket && outgoing.reusedSocket && error.code === "ECONNRESET" && !request.signal.aborted) {
        send(url, address, request, false).then(resolve, reject);
        return;
      }
      reject(error);
    });
    outgoing.end(body);
  });
}

const DECODERS: Record<string, (input: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

async function readBody(incoming: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      incoming.destroy();
      throw new InvalidResponseError(`the answer is larger than ${MAX_BODY_BYTES} bytes`, incoming.statusCode);
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  const encoding = (incoming.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return raw.toString("utf8");
  const decode = DECODERS[encoding];
  if (!decode) throw new InvalidResponseError(`the answer is encoded as "${encoding.slice(0, 40)}"`, incoming.statusCode);
  try {
    return (await decode(raw, { maxOutputLength: MAX_BODY_BYTES })).toString("utf8");
  } catch (error) {
    throw new InvalidResponseError(`the ${encoding} answer could not be decoded (${(error as { code?: string }).code ?? "error"})`, incoming.statusCode);
  }
}

function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index], raw[index + 1]);
    } catch {
      // A header fetch's Headers would not hold either: left out.
    }
  }
  return headers;
}

/** Where a redirect pointed, for the logs: its origin only (a path or query may hold anything). */
function originOf(location: string | null, base: URL): string {
  if (!location) return "(no Location)";
  try {
    return new URL(location, base).origin;
  } catch {
    return "(an unreadable Location)";
  }
}
