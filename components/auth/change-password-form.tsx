"use client";

import { useState, useTransition } from "react";
import { signIn } from "next-auth/react";
import { changePasswordAction } from "@/lib/actions/auth/change-password";
import type { ActionState } from "@/lib/forms/action-state";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function ChangePasswordForm({ email }: { email: string }) {
  const [values, setValues] = useState({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [state, setState] = useState<ActionState>({ status: "idle" });
  const [pending, startTransition] = useTransition();
  const fieldErrors = state.status === "error" ? (state.fieldErrors ?? {}) : {};

  const update = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: event.target.value }));

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await changePasswordAction(formData);
      if (result.status === "success") {
        // Every session ended with the change; this browser signs in again with the new password.
        await signIn("credentials", { email, password: values.newPassword, redirect: false });
        setValues({ currentPassword: "", newPassword: "", confirmPassword: "" });
      }
      setState(result);
    });
  }

  return (
    <form onSubmit={submit} className="max-w-md space-y-4" noValidate>
      {state.status === "success" ? <Notice tone="success">{state.message}</Notice> : null}
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <Field name="currentPassword" label="Current password" type="password" autoComplete="current-password" value={values.currentPassword} onChange={update("currentPassword")} error={fieldErrors.currentPassword} />
      <Field name="newPassword" label="New password" type="password" autoComplete="new-password" value={values.newPassword} onChange={update("newPassword")} error={fieldErrors.newPassword} hint="At least 12 characters." />
      <Field name="confirmPassword" label="Repeat the new password" type="password" autoComplete="new-password" value={values.confirmPassword} onChange={update("confirmPassword")} error={fieldErrors.confirmPassword} />
      <Button type="submit" pending={pending}>
        Change password
      </Button>
    </form>
  );
}
