"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { signUpAction } from "@/lib/actions/auth/sign-up";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import { useActionForm } from "@/components/forms/use-action-form";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function SignUpForm({ invite, callbackUrl }: { invite?: string; callbackUrl: string }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(signUpAction, {
    // The account exists: sign this browser in with what was typed, then open the portal.
    async onSuccess(created, { formData }) {
      const email = String(formData.get("email") ?? "");
      const password = String(formData.get("password") ?? "");
      const signedIn = await signIn("credentials", { email, password, redirect: false });
      if (!signedIn || signedIn.error) return { status: "error", message: "Your account was created, but signing in failed. Please sign in." };
      window.location.assign(safeCallbackUrl(callbackUrl, { origin: window.location.origin }));
      return created;
    },
  });

  return (
    <form {...formProps} className="space-y-4" noValidate>
      {state.status === "error" && state.message ? (
        <Notice tone="error" testId="form-error">
          {state.message}
        </Notice>
      ) : null}
      {state.status === "success" ? (
        // Seen without JavaScript (nothing signs in for the person then), or for a moment before the portal opens.
        <Notice tone="success" testId="sign-up-done">
          {state.message}{" "}
          <Link href={`/sign-in${callbackUrl === "/" ? "" : `?callbackUrl=${encodeURIComponent(callbackUrl)}`}`} className="font-medium underline">
            Sign in
          </Link>
        </Notice>
      ) : null}
      {invite ? <input type="hidden" name="invite" value={invite} /> : null}
      <Field name="name" label="Your name" autoComplete="name" required error={fieldErrors.name} autoFocus />
      <Field name="email" label="Email" type="email" autoComplete="email" required error={fieldErrors.email} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        error={fieldErrors.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A long phrase is easiest to remember.`}
      />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
