import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/** What EMS Portal is, in three lines: the first thing an empty portal shows. */
export function PortalIntro({ withSetUpLink = false }: { withSetUpLink?: boolean }) {
  return (
    <div data-testid="portal-intro">
      <p className="mt-1 text-sm text-slate-700">
        EMS Portal is where your team watches the webhooks of your Event Management Service: every webhook and group, which ones fire for each event, and what is wrong
        with the setup, with each person reading through their own API credentials.
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>Create the first account: you own the portal&apos;s first team.</li>
        <li>Connect your EMS API credentials, or try the built-in sandbox.</li>
        <li>Invite your teammates from the Team page.</li>
      </ul>
      {withSetUpLink ? (
        <Link href="/sign-up" className={buttonClasses("primary", { className: "mt-5 w-full" })} data-testid="set-up-portal">
          Set up EMS Portal
        </Link>
      ) : null}
    </div>
  );
}
