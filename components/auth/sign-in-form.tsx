"use client";

import { useState, useTransition } from "react";
import { signIn } from "next-auth/react";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { Field } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

export function SignInForm({ callbackUrl, initialEmail = "", notice }: { callbackUrl: string; initialEmail?: string; notice?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    startTransition(async () => {
      const result = await signIn("credentials", { email, password, redirect: false, callbackUrl });
      if (!result || result.error) {
        setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password.");
        return;
      }
      // A full navigation so every server component renders with the new session. The page
      // checked the address already; the same check here keeps the form safe wherever it is used.
      window.location.assign(safeCallbackUrl(callbackUrl, { origin: window.location.origin }));
    });
  }

  return (
    // POST without JavaScript: the password never lands in a URL (the page just renders again).
    <form onSubmit={submit} method="post" className="space-y-4" noValidate>
      {notice && !error ? <Notice tone="info">{notice}</Notice> : null}
      {error ? (
        <Notice tone="error" testId="form-error">
          {error}
        </Notice>
      ) : null}
      <Field name="email" label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus={!initialEmail} />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} autoFocus={!!initialEmail} />
      <Button type="submit" pending={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
