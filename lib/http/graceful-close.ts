import "server-only";
import http from "node:http";
import https from "node:https";

/**
 * A stopping server lets go of its kept-alive connections, so SIGTERM ends the process.
 *
 * Why: on SIGTERM Next's server calls `server.close()` and exits only once every connection has
 * ended. Node closes the connections idle at that moment, but one with a request in flight stays
 * open, and a browser that asks again within the keep-alive timeout (the plan page refreshes every
 * 2 s, a list's freshness every few) keeps it busy for ever: the process never exits. Seen in
 * e2e/instance-kill.spec.ts: a server stopped while a plan page was open on it was still running
 * seven minutes later (a deploy would have had to kill it, mid-request).
 *
 * How: `close()` of Node's HTTP servers is wrapped (as lib/auth/forwarded-for.ts wraps `emit`).
 * Once a server is closing, every IDLE_SWEEP_MS the connections that have become idle (their
 * request answered) are closed, before the browser's next request can keep them busy; a request
 * still running after CLOSE_DEADLINE_MS (a long export's stream) is cut, since the platform's own
 * kill would come soon after anyway. Every request in flight at SIGTERM is answered.
 */

const INSTALLED = Symbol.for("ems-portal.graceful-close-hook");
const CLOSING = Symbol("ems-portal.server-closing");

/** Short beside a browser's next request on the same connection (a page's refresh: 2 s and more). */
const IDLE_SWEEP_MS = 100;
/** Within the grace most platforms give between SIGTERM and SIGKILL (Docker 10 s, Kubernetes 30 s). */
export const CLOSE_DEADLINE_MS = 8_000;

type Closable = (http.Server | https.Server) & { [CLOSING]?: boolean };
type Close = (this: Closable, callback?: (error?: Error) => void) => Closable;

export function installGracefulCloseHook(): void {
  for (const Server of [http.Server, https.Server]) {
    const prototype = Server.prototype as unknown as { close: Close } & Record<symbol, unknown>;
    if (prototype[INSTALLED]) continue;
    const close = prototype.close;
    prototype.close = function closeLettingGo(callback) {
      // A server that is not listening answers close() with an error and never emits "close": no sweep for it.
      if (!this[CLOSING] && this.listening) {
        this[CLOSING] = true;
        const sweep = setInterval(() => this.closeIdleConnections(), IDLE_SWEEP_MS);
        const deadline = setTimeout(() => this.closeAllConnections(), CLOSE_DEADLINE_MS);
        // Neither keeps the process alive by itself; both end with the server.
        sweep.unref();
        deadline.unref();
        this.once("close", () => {
          clearInterval(sweep);
          clearTimeout(deadline);
        });
      }
      return close.call(this, callback);
    };
    prototype[INSTALLED] = true;
  }
}
