import type { Metadata } from "next";
import { ListingOptionsPage } from "@/components/listing/listing-options-page";
import { requireActor } from "@/lib/auth/session";
import { parseListingSearchParams } from "@/lib/listing/search-params";

export const metadata: Metadata = { title: "Webhook groups: options" };

/** The list's options without JavaScript: its `<noscript>` links here (components/listing/listing-options-page.tsx). */
export default async function WebhookGroupsOptionsPage(props: PageProps<"/webhook-groups/options">) {
  await requireActor();
  return <ListingOptionsPage state={parseListingSearchParams("webhook-groups", await props.searchParams)} />;
}
