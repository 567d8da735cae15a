import Link from "next/link";
import { Fragment, type ReactNode } from "react";

/** Where a page sits: a link to each page above it, then the page itself ("Webhooks / 12 / Edit"). */
export function Breadcrumb({ trail, current }: { trail: readonly { href: string; label: ReactNode }[]; current: ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      {trail.map((step) => (
        <Fragment key={step.href}>
          <Link href={step.href} className="text-brand-700 underline">
            {step.label}
          </Link>{" "}
          <span aria-hidden>/</span>{" "}
        </Fragment>
      ))}
      <span>{current}</span>
    </nav>
  );
}
