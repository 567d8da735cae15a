import "server-only";
import { randomUUID } from "node:crypto";
import { GENERIC_ERROR_MESSAGE, isSafeError } from "@/lib/errors";
import type { ActionState } from "@/lib/forms/action-state";

/**
 * Turns an error thrown by a data function into what a form shows: a SafeError's own words, or a
 * generic message with a request id (the details go to the log, never to the browser).
 * `redirect()` and `notFound()` are not errors here: rethrow them before calling this.
 */
export function errorState(error: unknown, action: string): Extract<ActionState, { status: "error" }> {
  if (isSafeError(error)) return { status: "error", message: error.message };
  const requestId = randomUUID();
  console.error(JSON.stringify({ level: "error", msg: "server action failed", action, requestId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }));
  return { status: "error", message: `${GENERIC_ERROR_MESSAGE} (reference ${requestId.slice(0, 8)})` };
}
