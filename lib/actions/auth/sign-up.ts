"use server";

import { signUp } from "@/lib/auth/sign-up";
import { publicAction } from "@/lib/actions/pipeline";
import { signUpSchema } from "./sign-up.validation";

/**
 * Creates an account (run signed out). The form then signs in with next-auth; without JavaScript
 * the person is told to sign in.
 */
export const signUpAction = publicAction({ name: "auth.sign-up", schema: signUpSchema }, async (input, { ip }) => {
  await signUp(input, { ip });
  return { message: "Your account was created." };
});
