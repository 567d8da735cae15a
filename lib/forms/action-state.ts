import type { z } from "zod";

/**
 * What a server action answers a form: field errors keyed by input name, a form-level message,
 * and on success optional data. Forms keep what was typed on the client; actions never echo secrets.
 */
export type ActionState<TData = undefined> =
  | { status: "idle" }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string> }
  | { status: "success"; message?: string; data?: TData };

export const IDLE: ActionState = { status: "idle" };

/** The first message of each invalid field, for `aria-describedby` error text. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    out[key] ??= issue.message;
  }
  return out;
}

export function formDataToObject(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string" && !key.startsWith("$ACTION")) out[key] = value;
  }
  return out;
}
