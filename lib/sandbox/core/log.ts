/**
 * Where the sandbox reports what it did not expect (a handler that threw, a response node refused).
 * The sandbox has no logger of its own: the portal hands it lib/log.ts's (pino, which has this
 * shape), and the standalone server falls back to one JSON line a report on stderr.
 */
export interface SandboxLogger {
  error(fields: { event: string; err?: unknown; [field: string]: unknown }, message: string): void;
}

/** The fallback when no logger is given: one JSON object a line on stderr, like the portal's logs. */
export const stderrLogger: SandboxLogger = {
  error({ err, ...fields }, message) {
    const error = err instanceof Error ? { type: err.name, message: err.message, stack: err.stack } : err;
    process.stderr.write(`${JSON.stringify({ level: "error", time: new Date().toISOString(), scope: "sandbox", ...fields, err: error, msg: message })}\n`);
  },
};
