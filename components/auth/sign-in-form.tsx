"use client";

import { useState, useTransition } from "react";
import { signIn } from "next-auth/react";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { TWO_FACTOR_REQUIRED } from "@/lib/access/reauth-shared";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

type Step = "password" | "code";

/**
 * Sign-in in one or two steps. The password first; for a two-factor person the server answers
 * TWO_FACTOR_REQUIRED with a short-lived challenge in an httpOnly cookie (no session), and the form
 * asks for the code from the app, or a recovery code, which completes that challenge.
 * `initialStep="code"`: the page found an open challenge (e.g. after changing the password).
 */
export function SignInForm({
  callbackUrl,
  initialEmail = "",
  notice,
  initialStep = "password",
}: {
  callbackUrl: string;
  initialEmail?: string;
  notice?: string;
  initialStep?: Step;
}) {
  const [step, setStep] = useState<Step>(initialStep);
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function finish() {
    // A full navigation so every server component renders with the new session. The page
    // checked the address already; the same check here keeps the form safe wherever it is used.
    window.location.assign(safeCallbackUrl(callbackUrl, { origin: window.location.origin }));
  }

  function submitPassword(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    startTransition(async () => {
      const result = await signIn("credentials", { email, password, redirect: false, callbackUrl });
      if (result?.error === TWO_FACTOR_REQUIRED) {
        setPassword("");
        setStep("code");
        return;
      }
      if (!result || result.error) {
        setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password.");
        return;
      }
      finish();
    });
  }

  function submitCode(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    startTransition(async () => {
      const result = await signIn("credentials", { code, redirect: false, callbackUrl });
      if (!result || result.error) {
        const message = result?.error && result.error !== "CredentialsSignin" ? result.error : "That code did not work.";
        setError(message);
        setCode("");
        // The challenge is gone (timed out, or too many wrong codes): back to the password.
        if (/email and password again/.test(message)) setStep("password");
        return;
      }
      finish();
    });
  }

  if (step === "code") {
    return (
      <form onSubmit={submitCode} method="post" className="space-y-4" noValidate aria-labelledby="code-step-heading">
        <div>
          <h2 id="code-step-heading" className="text-base font-semibold">
            Two-factor authentication
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {useRecoveryCode
              ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each code works once."
              : "Open your authenticator app and enter the 6-digit code it shows for EMS Portal."}
          </p>
        </div>
        {error ? (
          <Notice tone="error" testId="form-error">
            {error}
          </Notice>
        ) : null}
        {useRecoveryCode ? (
          <Field
            key="recovery"
            name="code"
            label="Recovery code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="xxxx-xxxx-xxxx-xxxx"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
        ) : (
          <Field
            key="totp"
            name="code"
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            placeholder="123456"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
            className="[&_input]:font-mono [&_input]:tracking-[0.3em]"
          />
        )}
        <Button type="submit" pending={pending} className="w-full">
          {pending ? "Checking…" : "Verify"}
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <button
            type="button"
            className="font-medium text-brand-700 underline-offset-2 hover:underline"
            onClick={() => {
              setUseRecoveryCode((value) => !value);
              setCode("");
              setError(null);
            }}
          >
            {useRecoveryCode ? "Use your authenticator app" : "Use a recovery code"}
          </button>
          <button
            type="button"
            className="text-slate-600 underline-offset-2 hover:underline"
            onClick={() => {
              setStep("password");
              setCode("");
              setError(null);
            }}
          >
            Start over
          </button>
        </div>
      </form>
    );
  }

  return (
    // POST without JavaScript: the password never lands in a URL (the page just renders again).
    <form onSubmit={submitPassword} method="post" className="space-y-4" noValidate>
      {notice && !error ? <Notice tone="info">{notice}</Notice> : null}
      {error ? (
        <Notice tone="error" testId="form-error">
          {error}
        </Notice>
      ) : null}
      <Field name="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus={!initialEmail} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoFocus={!!initialEmail}
      />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
