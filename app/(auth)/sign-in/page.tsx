import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { challengeCookie } from "@/lib/auth/options";
import { openChallenge } from "@/lib/auth/two-factor";
import { getActor } from "@/lib/auth/session";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { authEnv } from "@/lib/env";
import { portalIsEmpty } from "@/lib/onboarding/first-run";
import { SignInForm } from "@/components/auth/sign-in-form";
import { PortalIntro } from "@/components/onboarding/portal-intro";
import { pageSearchParams, type PageSearchParams } from "@/lib/page-search-params";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = pageSearchParams(await searchParams);
  // A path on the portal, percent-encoded: safe in the redirect's Location header and in the form.
  const callbackUrl = safeCallbackUrl(params.get("callbackUrl"), { origin: authEnv().NEXTAUTH_URL });
  if (await getActor()) redirect(callbackUrl);
  // A fresh install: nobody can sign in yet, so it says what the portal is and offers to set it up.
  if (await portalIsEmpty()) {
    return (
      <>
        <h1 className="text-xl font-semibold">Welcome to EMS Portal</h1>
        <PortalIntro withSetUpLink />
      </>
    );
  }
  const signUpHref = callbackUrl === "/" ? "/sign-up" : `/sign-up?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  const notice = params.get("callbackUrl") && callbackUrl !== "/" ? "Sign in to continue." : undefined;
  // A password already checked in this browser (its challenge cookie is open): the code comes next.
  const pendingCode = !!(await openChallenge((await cookies()).get(challengeCookie().name)?.value));
  return (
    <>
      <h1 className="mb-6 text-xl font-semibold">Sign in to EMS Portal</h1>
      <SignInForm callbackUrl={callbackUrl} notice={notice} initialStep={pendingCode ? "code" : "password"} />
      <p className="mt-6 text-center text-sm text-slate-600">
        New here?{" "}
        <Link href={signUpHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Create an account
        </Link>
      </p>
    </>
  );
}
