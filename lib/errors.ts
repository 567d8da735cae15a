/**
 * An error whose message was written for the person using the portal. Only these messages reach
 * a page or a form; anything else is logged with a request id and shown as a generic message.
 */
export class SafeError extends Error {
  readonly safe = true;
  constructor(
    message: string,
    readonly code: string = "error",
  ) {
    super(message);
    this.name = "SafeError";
  }
}

export function isSafeError(error: unknown): error is SafeError {
  return error instanceof SafeError || (typeof error === "object" && error !== null && (error as { safe?: unknown }).safe === true);
}

export const GENERIC_ERROR_MESSAGE = "Something went wrong on our side. Please try again.";

/** The message a user may see for any error. */
export function userMessageOf(error: unknown): string {
  return isSafeError(error) ? error.message : GENERIC_ERROR_MESSAGE;
}

/**
 * A SafeError about one input of a form: a server action answers it as that field's error
 * (`fieldErrors[field]`), e.g. "An account with this email already exists" next to the email.
 */
export class FieldError extends SafeError {
  constructor(
    readonly field: string,
    message: string,
    code = "invalid_field",
  ) {
    super(message, code);
    this.name = "FieldError";
  }
}

/**
 * Several inputs of a form wrong at once (a plan's edits checked against the EMS's rules): a server
 * action answers each as that field's error, with the message as the form's.
 */
export class FieldErrorsError extends SafeError {
  constructor(
    readonly fieldErrors: Record<string, string>,
    message = "Some fields need another look.",
  ) {
    super(message, "invalid_fields");
    this.name = "FieldErrorsError";
  }
}

export function isFieldErrorsError(error: unknown): error is FieldErrorsError {
  return isSafeError(error) && typeof (error as { fieldErrors?: unknown }).fieldErrors === "object" && (error as { fieldErrors?: unknown }).fieldErrors !== null;
}

export function isFieldError(error: unknown): error is FieldError {
  return isSafeError(error) && typeof (error as { field?: unknown }).field === "string";
}

/** The person may not do this (their role, or the rule of the thing they asked for). */
export class ForbiddenError extends SafeError {
  constructor(message = "You do not have permission to do that.") {
    super(message, "forbidden");
  }
}

/** What was asked for does not exist, or is not the person's team's: the same answer for both. */
export class NotFoundError extends SafeError {
  constructor(message = "That no longer exists, or it is not in your team.") {
    super(message, "not_found");
  }
}

/**
 * A SafeError about what a request asked for (a query a route cannot serve): a route handler answers
 * it 400 with its message (lib/actions/route.ts), where any other SafeError is a conflict with the
 * state of things (409).
 */
export class BadRequestError extends SafeError {
  constructor(message: string, code = "bad_request") {
    super(message, code);
    this.name = "BadRequestError";
  }
}
