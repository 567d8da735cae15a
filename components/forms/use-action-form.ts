"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { IDLE, type ActionState, type ActionSuccessState, type FormAction } from "@/lib/forms/action-state";
import { useReauth } from "@/components/auth/reauth-context";

type Submission = { formData: FormData; form: HTMLFormElement; retried?: boolean };

export interface ActionFormOptions<TData> {
  /**
   * Runs in the browser after a successful answer and before it is shown, e.g. signing in with
   * next-auth or clearing secret fields. May return a different state to show instead.
   */
  onSuccess?: (state: ActionSuccessState<TData>, submission: Submission) => Promise<ActionState<TData> | void> | ActionState<TData> | void;
}

/**
 * The one way a form talks to its server action (lib/actions/pipeline.ts). Spread `formProps` on
 * the form:
 *
 *   const { state, pending, fieldErrors, formProps } = useActionForm(saveCredentialsAction);
 *   <form {...formProps}>…</form>
 *
 * - With JavaScript, `onSubmit` dispatches the submission inside a transition and prevents the
 *   native one, so React does not reset the form: a refused submission keeps what was typed.
 * - Without JavaScript (not loaded yet, or off), `action` makes React render the form as a POST to
 *   the server action; Next runs it and renders the page with its answer. A form never falls back
 *   to a GET, which would put its fields (a password, a secret) in the URL.
 */
export function useActionForm<TData = undefined>(action: FormAction<TData>, options: ActionFormOptions<TData> = {}) {
  // The no-JavaScript path: bound to the server action itself, so React can render it as a real
  // POST, and the answer of such a post comes back as this state.
  const [posted, postAction] = useActionState(action, IDLE as ActionState<TData>);
  // The JavaScript path: the same action, then `onSuccess`, queued one submission at a time.
  const requestReauth = useReauth();
  // Sends a submission again after a re-authentication (set once the dispatcher below exists).
  const resend = useRef<((submission: Submission) => void) | null>(null);
  const [answered, dispatch, pending] = useActionState<ActionState<TData> | null, Submission>(async (previous, submission) => {
    const result = await action(previous ?? posted, submission.formData);
    if (result.status === "error" && result.reauthRequired && requestReauth && !submission.retried) {
      // Not awaited here: React entangles pending async transitions, so waiting inside this one for
      // the dialog's own action would wait for itself. The dialog opens when this answer commits;
      // once confirmed, the same submission (what was typed, as FormData) is sent once more.
      void requestReauth(result.reauthRequired).then((confirmed) => {
        if (confirmed) resend.current?.({ ...submission, retried: true });
      });
      // The dialog says what is needed: no red refusal behind it (nor after a cancel).
      return { status: "idle" };
    }
    if (result.status !== "success" || !options.onSuccess) return result;
    return (await options.onSuccess(result, submission)) ?? result;
  }, null);

  useEffect(() => {
    resend.current = (submission) => startTransition(() => dispatch(submission));
  }, [dispatch]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(form, submitter);
    startTransition(() => dispatch({ formData, form }));
  }

  const state = answered ?? posted;
  const fieldErrors: Record<string, string> = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return { state, pending, fieldErrors, formProps: { action: postAction, onSubmit } };
}
