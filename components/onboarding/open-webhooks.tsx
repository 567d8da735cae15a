import Link from "next/link";
import { ArrowRight } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/** The one next step once credentials connect: the webhooks list, the portal's home. */
export function OpenWebhooksButton() {
  return (
    <Link href="/webhooks" className={buttonClasses("primary", { className: "mt-1" })} data-testid="open-webhooks">
      Open your webhooks
      <ArrowRight aria-hidden className="size-4" />
    </Link>
  );
}
