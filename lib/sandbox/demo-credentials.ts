/**
 * The sandbox's default accounts. Plain constants, not secrets of any real user: they are printed at
 * start-up and offered in the portal's credential form. The demo secret deliberately holds a space,
 * `+`, `/`, `=`, `:`, `%`, `&` and a non-ASCII letter, so every client exercises the encoding rule.
 */
export const DEMO_CREDENTIALS = {
  consumerKey: "ems_demo_key",
  consumerSecret: "s3cret pass+/=:%&é",
} as const;

/** A second account, so tests can prove that one account never sees another's data. */
export const OTHER_CREDENTIALS = {
  consumerKey: "ems_other_key",
  consumerSecret: "other-secret-123",
} as const;
