import { z } from "zod";
import { isCommonPassword } from "./common-passwords";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256; // argon2 hashes anything, but a megabyte "password" is an attack

/** The rule for every new password (sign-up, change): length, and not a common one. */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { error: `Use at least ${MIN_PASSWORD_LENGTH} characters.` })
  .max(MAX_PASSWORD_LENGTH, { error: `Use at most ${MAX_PASSWORD_LENGTH} characters.` })
  .refine((value) => !isCommonPassword(value), { error: "This password is one of the most common ones. Choose another." });
