import "server-only";
import http from "node:http";
import https from "node:https";
import { clientAddressEnv } from "@/lib/env";

/**
 * Makes the portal's HTTP server behave as a proxy hop does: it appends the address of the
 * connection a request came in on to that request's X-Forwarded-For, before Next.js sees it.
 *
 * Why: Next.js 16 (`next start`, the standalone server) writes the socket's address into
 * `x-forwarded-for` only when the header is absent (`??=` in next/dist/server/base-server.js), and
 * there is no other way to reach the socket from a page, a server action or a route handler. A
 * client that sends its own X-Forwarded-For would otherwise choose the address every throttle
 * counts. With this hook the rightmost entry is always the connection's peer, and
 * lib/auth/request-meta.ts counts TRUSTED_PROXY_COUNT entries left from it.
 *
 * Installed once per process by instrumentation.ts (Node runtime), which Next runs before the
 * server handles requests. It wraps `emit` on the prototypes of http.Server and https.Server (the
 * servers Next creates), so it reaches a server that already exists. Not installed on Vercel,
 * whose own headers are read instead.
 */

const INSTALLED = Symbol.for("ems-portal.forwarded-for-hook");

type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;

/** Appends `req`'s socket address to its X-Forwarded-For (the list a proxy would extend). */
export function appendSocketPeer(req: http.IncomingMessage): void {
  const peer = req.socket?.remoteAddress;
  if (!peer) return;
  const existing = req.headers["x-forwarded-for"];
  const list = Array.isArray(existing) ? existing.join(", ") : existing;
  req.headers["x-forwarded-for"] = list && list.trim() !== "" ? `${list}, ${peer}` : peer;
}

/** Whether this process's HTTP servers append the peer's address (for start-up checks and tests). */
export function forwardedForHookInstalled(): boolean {
  return Boolean((http.Server.prototype as unknown as Record<symbol, unknown>)[INSTALLED]);
}

export function installForwardedForHook(): void {
  if (clientAddressEnv().VERCEL) return;
  for (const Server of [http.Server, https.Server]) {
    const prototype = Server.prototype as unknown as { emit: Emit } & Record<symbol, unknown>;
    if (prototype[INSTALLED]) continue;
    const emit = prototype.emit;
    prototype.emit = function emitWithPeer(this: unknown, event, ...args) {
      if (event === "request" && args[0] instanceof http.IncomingMessage) appendSocketPeer(args[0]);
      return emit.call(this, event, ...args);
    };
    prototype[INSTALLED] = true;
  }
}
