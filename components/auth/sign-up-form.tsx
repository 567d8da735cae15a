"use client";

import { useState, useTransition } from "react";
import { signIn } from "next-auth/react";
import { signUpAction } from "@/lib/actions/auth/sign-up";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import type { ActionState } from "@/lib/forms/action-state";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function SignUpForm({ invite, callbackUrl }: { invite?: string; callbackUrl: string }) {
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [state, setState] = useState<ActionState>({ status: "idle" });
  const [pending, startTransition] = useTransition();
  const fieldErrors = state.status === "error" ? (state.fieldErrors ?? {}) : {};

  function update(field: keyof typeof values) {
    return (event: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: event.target.value }));
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await signUpAction(formData);
      if (result.status !== "success") {
        setState(result);
        return;
      }
      const signedIn = await signIn("credentials", { email: values.email, password: values.password, redirect: false });
      if (!signedIn || signedIn.error) {
        setState({ status: "error", message: "Your account was created, but signing in failed. Please sign in." });
        return;
      }
      window.location.assign(callbackUrl);
    });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {state.status === "error" && state.message ? (
        <Notice tone="error" testId="form-error">
          {state.message}
        </Notice>
      ) : null}
      {invite ? <input type="hidden" name="invite" value={invite} /> : null}
      <Field name="name" label="Your name" autoComplete="name" required value={values.name} onChange={update("name")} error={fieldErrors.name} autoFocus />
      <Field name="email" label="Email" type="email" autoComplete="email" required value={values.email} onChange={update("email")} error={fieldErrors.email} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        value={values.password}
        onChange={update("password")}
        error={fieldErrors.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A long phrase is easiest to remember.`}
      />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
