"use client";

import { useRouter } from "next/navigation";
import { confirmTwoFactorEnrolmentAction } from "@/lib/actions/two-factor/confirm-enrolment";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { RecoveryCodes } from "./recovery-codes";

/**
 * The first code from the app turns two-factor on; then the recovery codes, until the person says
 * they saved them (the page is refreshed only then, or `doneHref` opened, so the codes stay on screen).
 */
export function ConfirmEnrolmentForm({ doneHref }: { doneHref?: string }) {
  const router = useRouter();
  const { state, pending, fieldErrors, formProps } = useActionForm(confirmTwoFactorEnrolmentAction);
  if (state.status === "success" && state.data) {
    return (
      <div className="space-y-4">
        {/* Says that the person's other sessions were signed out with it. */}
        {state.message ? (
          <Notice tone="success" testId="two-factor-enabled-message">
            {state.message}
          </Notice>
        ) : null}
        <RecoveryCodes
          codes={state.data.recoveryCodes}
          doneLabel={doneHref ? "I have saved them: continue" : "I have saved these codes"}
          onDone={() => (doneHref ? window.location.assign(doneHref) : router.refresh())}
        />
      </div>
    );
  }
  return (
    <form {...formProps} className="space-y-3" noValidate>
      {state.status === "error" && state.message ? <Notice tone="error">{state.message}</Notice> : null}
      <div className="flex flex-wrap items-end gap-3">
        <Field
          name="code"
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          placeholder="123456"
          error={fieldErrors.code}
          className="w-44 [&_input]:font-mono [&_input]:tracking-[0.3em]"
        />
        <Button type="submit" pending={pending} className={fieldErrors.code ? "mb-7" : undefined}>
          Turn on two-factor
        </Button>
      </div>
    </form>
  );
}
