import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { authEnv } from "@/lib/env";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const metadata: Metadata = { title: "Create account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl, { origin: authEnv().NEXTAUTH_URL });
  if (await getActor()) redirect(callbackUrl);
  const invite = typeof params.invite === "string" && params.invite ? params.invite : undefined;
  return (
    <>
      <h1 className="text-xl font-semibold">Create your account</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">
        {invite ? "You were invited to join a team on EMS Portal." : "You will start a team of your own and can invite others."}
      </p>
      <SignUpForm invite={invite} callbackUrl={callbackUrl} />
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href={`/sign-in${callbackUrl === "/" ? "" : `?callbackUrl=${encodeURIComponent(callbackUrl)}`}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </p>
    </>
  );
}
