// Calling a server action as a crafted direct request would: the exported function, with a
// previous state and FormData, and nothing of the form's own checks.
import { expect } from "vitest";
import { isRedirectError } from "next/dist/client/components/redirect-error";
import { getURLFromRedirectError } from "next/dist/client/components/redirect";
import { IDLE, type ActionState, type FormAction } from "@/lib/forms/action-state";

export function formData(fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** Calls `action` with these fields as FormData. */
export function call<TData>(action: FormAction<TData>, fields: Record<string, string> = {}): Promise<ActionState<TData>> {
  return action(IDLE, formData(fields));
}

/** The location of the redirect the call ended in; fails the test if it answered instead. */
export async function redirectOf(promise: Promise<unknown>): Promise<string> {
  try {
    const answer = await promise;
    expect.fail(`expected a redirect, but the action answered ${JSON.stringify(answer)}`);
  } catch (error) {
    if (!isRedirectError(error)) throw error;
    return getURLFromRedirectError(error);
  }
}

/** Signed out: the action redirects to sign-in, with the page it was called from as the way back. */
export async function expectSignInRedirect(promise: Promise<unknown>, from = "/"): Promise<void> {
  expect(await redirectOf(promise)).toBe(`/sign-in?callbackUrl=${encodeURIComponent(from)}`);
}
