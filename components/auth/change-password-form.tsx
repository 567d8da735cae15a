"use client";

import { signIn } from "next-auth/react";
import { changePasswordAction } from "@/lib/actions/auth/change-password";
import { TWO_FACTOR_REQUIRED } from "@/lib/access/reauth-shared";
import { useActionForm } from "@/components/forms/use-action-form";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { toastSuccess } from "@/components/forms/toast-success";

/** The sign-in page finds the challenge cookie the password step just set, and asks for the code. */
const SIGN_IN_FOR_CODE = "/sign-in?callbackUrl=%2Faccount";

export function ChangePasswordForm({ email }: { email: string }) {
  const { state, pending, fieldErrors, formProps } = useActionForm(changePasswordAction, {
    // Every session ended with the change; this browser signs in again with the new password.
    async onSuccess(changed, { formData, form }) {
      const result = await signIn("credentials", { email, password: String(formData.get("newPassword") ?? ""), redirect: false });
      // With two-factor the new password alone opens no session: the sign-in page asks for the code.
      if (result?.error === TWO_FACTOR_REQUIRED) window.location.assign(new URL(SIGN_IN_FOR_CODE, window.location.origin).href);
      form.reset();
      return toastSuccess(changed);
    },
  });

  return (
    <form {...formProps} className="max-w-md space-y-4" noValidate>
      {state.status === "success" && state.message ? <Notice tone="success">{state.message}</Notice> : null}
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <Field name="currentPassword" label="Current password" type="password" autoComplete="current-password" error={fieldErrors.currentPassword} />
      <Field name="newPassword" label="New password" type="password" autoComplete="new-password" error={fieldErrors.newPassword} hint="At least 12 characters." />
      <Field name="confirmPassword" label="Repeat the new password" type="password" autoComplete="new-password" error={fieldErrors.confirmPassword} />
      <Button type="submit" pending={pending}>
        Change password
      </Button>
    </form>
  );
}
