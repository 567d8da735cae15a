import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { signUpPageText } from "@/lib/auth/sign-up-policy";
import { authEnv } from "@/lib/env";
import { portalIsEmpty } from "@/lib/onboarding/first-run";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { PortalIntro } from "@/components/onboarding/portal-intro";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

export const metadata: Metadata = { title: "Create account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = pageSearchParams(await searchParams);
  const callbackUrl = safeCallbackUrl(params.get("callbackUrl"), { origin: authEnv().NEXTAUTH_URL });
  if (await getActor()) redirect(callbackUrl);
  const invite = params.get("invite") || undefined;
  // The first account of a fresh install starts its first team: the page says so, and what the portal is.
  if (!invite && (await portalIsEmpty())) {
    return (
      <>
        <h1 className="text-xl font-semibold">Set up EMS Portal</h1>
        <PortalIntro />
        <div className="mt-6">
          <SignUpForm callbackUrl={callbackUrl} />
        </div>
      </>
    );
  }
  // What SIGNUP_MODE allows a visitor without an invitation (an invitation link works in every mode).
  const policy = invite ? { text: "You were invited to join a team on EMS Portal.", formShown: true } : await signUpPageText();
  return (
    <>
      <h1 className="text-xl font-semibold">Create your account</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600" data-testid="sign-up-policy">
        {policy.text}
      </p>
      {policy.formShown ? <SignUpForm invite={invite} callbackUrl={invite && callbackUrl === "/" ? "/welcome" : callbackUrl} /> : null}
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link
          href={`/sign-in${callbackUrl === "/" ? "" : `?callbackUrl=${encodeURIComponent(callbackUrl)}`}`}
          className="font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </>
  );
}
