import "server-only";
import { randomUUID } from "node:crypto";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { requireActor } from "@/lib/auth/session";
import { type Actor } from "@/lib/access/actor";
import { clientIp } from "@/lib/auth/request-meta";
import { assertRecentProof, isReauthRequired } from "@/lib/access/recent-auth";
import { GENERIC_ERROR_MESSAGE, isFieldError, isFieldErrorsError, isSafeError } from "@/lib/errors";
import { asDatabaseUnavailable } from "@/lib/db/outage";
import type { ActionErrorState, ActionState, FormAction, ReauthProof } from "@/lib/forms/action-state";
import { log } from "@/lib/log";

/**
 * The one way to write a server action. A server action is a public endpoint: anyone can call it
 * with any arguments, so every one goes through the same steps, in this order:
 *
 *   1. a request id for this call;
 *   2. `authedAction`: the actor from `requireActor()` (signed out: the redirect to /sign-in; a
 *      team that requires two-factor and a person without it: the redirect to enrol, unless the
 *      action is one of enrolment's, `allowTwoFactorSetup`); with `recentAuth: true`, this
 *      session must have re-authenticated within AUTH_REAUTH_WINDOW_SECONDS, or the answer is
 *      `reauthRequired` (the form asks for the password or a code, then sends the same fields again);
 *      with `recentAuth: "password"` (what changes who controls the account), it must have proved
 *      its password within the window (lib/auth/reauth.ts), and a code alone does not do;
 *   3. the FormData parsed by the action's zod schema (invalid: field errors keyed by input name,
 *      and nothing else runs); an action sensitive for some inputs only (`recentAuth: (input) =>
 *      boolean`, e.g. an invitation as owner or admin) checks the re-authentication here, once the
 *      input is known;
 *   4. the handler: one data function, then revalidate or redirect, then the answer;
 *   5. errors: a `FieldError` becomes that field's error, any other `SafeError` the form's message,
 *      a database out of reach "can't reach its database… nothing was saved" (lib/db/outage.ts),
 *      anything else is logged with the request id and answered with a generic message carrying
 *      its first eight characters. `redirect()` / `notFound()` from Next pass through untouched.
 *
 *   export const removeMemberAction = authedAction(
 *     { name: "team.remove-member", schema: removeMemberSchema },
 *     async (input, { actor, ip }) => {
 *       await removeMember(actor, input, { ip });
 *       revalidatePath("/team");
 *       return { message: "Removed." };
 *     },
 *   );
 *
 * The answer is an `ActionState` (lib/forms/action-state.ts); it never carries what was typed.
 */

export interface PublicActionContext {
  /** Unique per call: in the log line of an unexpected error, and for calls the handler makes. */
  requestId: string;
  /** The client's address, for audit records. */
  ip: string;
}

export interface AuthedActionContext extends PublicActionContext {
  actor: Actor;
}

/** What a handler returns when it succeeded; the pipeline adds `status: "success"`. */
export interface ActionSuccess<TData> {
  message?: string;
  data?: TData;
}

/** For an action that takes nothing from the form (it acts on the actor's own data). */
export const NO_INPUT = z.object({}).strip();

export interface ActionConfig<TSchema extends z.ZodType> {
  /** Names the action in logs, `<domain>.<verb>`, e.g. "team.remove-member". */
  name: string;
  /** Parses the form's fields (all strings; `$ACTION_*` fields and files are left out). */
  schema: TSchema;
  /** A form-level message for invalid input, for forms that show no field errors. */
  invalidMessage?: string;
}

export interface AuthedActionConfig<TSchema extends z.ZodType> extends ActionConfig<TSchema> {
  /**
   * A sensitive action: needs a password (or code) within the re-authentication window
   * (lib/auth/reauth.ts); "password": the password itself (and, with two-factor, a code too).
   * A function: sensitive for the parsed inputs it returns true for.
   */
  recentAuth?: boolean | "password" | ((input: z.output<TSchema>) => boolean);
  /** Open to a person who must still enrol in two-factor (the enrolment's own actions, sign-out). */
  allowTwoFactorSetup?: boolean;
}

type Handler<TSchema extends z.ZodType, TContext, TData> = (input: z.output<TSchema>, context: TContext) => Promise<ActionSuccess<TData> | void>;

/** For a signed-in person: the handler gets the checked `actor`. */
export function authedAction<TSchema extends z.ZodType, TData = undefined>(
  config: AuthedActionConfig<TSchema>,
  handler: Handler<TSchema, AuthedActionContext, TData>,
): FormAction<TData> {
  return pipeline(
    config,
    async () => {
      const actor = await requireActor({ allowTwoFactorSetup: config.allowTwoFactorSetup });
      // Before the input is even parsed: nothing of a sensitive action runs without it.
      const proof = fixedProof(config.recentAuth);
      if (proof) assertRecentProof(actor, proof);
      return { actor };
    },
    async (input, context) => {
      const { recentAuth } = config;
      if (typeof recentAuth === "function" && recentAuth(input)) assertRecentProof(context.actor, "any");
      return handler(input, context);
    },
  );
}

/** The proof an action needs whatever its input (a function's answer waits for the parsed input). */
function fixedProof(recentAuth: AuthedActionConfig<z.ZodType>["recentAuth"] | ((input: never) => boolean)): ReauthProof | null {
  if (recentAuth === true) return "any";
  if (recentAuth === "password") return "password";
  return null;
}

/** For the signed-out pages (sign-up): no actor; everything else is the same. */
export function publicAction<TSchema extends z.ZodType, TData = undefined>(
  config: ActionConfig<TSchema>,
  handler: Handler<TSchema, PublicActionContext, TData>,
): FormAction<TData> {
  return pipeline(config, async () => ({}), handler);
}

function pipeline<TSchema extends z.ZodType, TExtra, TData>(
  config: ActionConfig<TSchema>,
  authenticate: () => Promise<TExtra>,
  handler: Handler<TSchema, PublicActionContext & TExtra, TData>,
): FormAction<TData> {
  return async function runAction(_previous: ActionState<TData>, formData: FormData): Promise<ActionState<TData>> {
    const requestId = randomUUID();
    try {
      const extra = await authenticate();
      const parsed = await config.schema.safeParseAsync(formDataToObject(formData));
      if (!parsed.success) return invalidInput(parsed.error, config.invalidMessage);
      const result = await handler(parsed.data, { requestId, ip: await clientIp(), ...extra });
      return {
        status: "success",
        ...(result?.message !== undefined ? { message: result.message } : {}),
        ...(result?.data !== undefined ? { data: result.data } : {}),
      };
    } catch (error) {
      // redirect(), notFound() and Next's other control-flow errors are not failures.
      unstable_rethrow(error);
      return errorState(error, config.name, requestId);
    }
  };
}

/**
 * A form's fields as strings. A crafted call may pass anything instead of FormData: that is an
 * empty form, which the schema then refuses field by field.
 */
function formDataToObject(formData: unknown): Record<string, string> {
  const fields = new Map<string, string>();
  if (formData instanceof FormData) {
    for (const [key, value] of formData.entries()) {
      if (typeof value === "string" && !key.startsWith("$ACTION")) fields.set(key, value);
    }
  }
  return Object.fromEntries(fields);
}

/** The first message of each invalid field, keyed by input name, for `aria-describedby` error text. */
function invalidInput(error: z.ZodError, message: string | undefined): ActionErrorState {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    fieldErrors[key] ??= issue.message;
  }
  return { status: "error", fieldErrors, ...(message ? { message } : {}) };
}

function errorState(error: unknown, action: string, requestId: string): ActionErrorState {
  if (isReauthRequired(error)) return { status: "error", message: error.message, reauthRequired: error.reauthRequired };
  if (isFieldError(error)) return { status: "error", fieldErrors: { [error.field]: error.message } };
  if (isFieldErrorsError(error)) return { status: "error", message: error.message, fieldErrors: error.fieldErrors };
  // The database is out of reach (lib/db/outage.ts): the input was fine and nothing was saved; the
  // form says so and keeps what was typed, for a try in a moment.
  const unavailable = asDatabaseUnavailable(error);
  if (unavailable) {
    log.warn({ event: "action.database_unavailable", action, requestId }, "server action could not reach the database");
    return { status: "error", message: unavailable.message };
  }
  if (isSafeError(error)) return { status: "error", message: error.message };
  log.error(
    {
      event: "action.failed",
      action,
      requestId,
      // Class, code and message only (lib/log.ts's serializeError): no stack, nothing attached.
      err: error,
    },
    "server action failed",
  );
  return { status: "error", message: `${GENERIC_ERROR_MESSAGE} (reference ${requestId.slice(0, 8)})` };
}
