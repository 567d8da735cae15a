/**
 * What the browser and the server share about re-authentication (no secrets, no server code):
 * the words of the refusal and the marker a form or the export button looks for to ask again.
 */
export const REAUTH_REQUIRED_MESSAGE = "For your security, confirm it's you to continue.";

/** The refusal of a change to who controls the account: only the password (and a code, with two-factor) will do. */
export const REAUTH_PASSWORD_MESSAGE = "For your security, enter your password to continue.";

/** The `error` next-auth hands the sign-in form when the password was right and a code comes next. */
export const TWO_FACTOR_REQUIRED = "two-factor-required";
