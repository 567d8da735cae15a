"use server";

import { changePassword } from "@/lib/auth/password-change";
import { authedAction } from "@/lib/actions/pipeline";
import { changePasswordSchema } from "./change-password.validation";

/**
 * Changes the password and ends every session (this one too): the form signs in again with the
 * new password, so only the person who knows it keeps a session.
 */
export const changePasswordAction = authedAction({ name: "auth.change-password", schema: changePasswordSchema }, async (input, { actor, ip }) => {
  await changePassword(actor, input, { ip });
  return { message: "Password changed. Other sessions have been signed out." };
});
