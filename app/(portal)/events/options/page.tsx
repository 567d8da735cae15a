import type { Metadata } from "next";
import { ListingOptionsPage } from "@/components/listing/listing-options-page";
import { requireActor } from "@/lib/auth/session";
import { parseListingSearchParams } from "@/lib/listing/search-params";

export const metadata: Metadata = { title: "Events: options" };

/** The list's options without JavaScript: its `<noscript>` links here (components/listing/listing-options-page.tsx). */
export default async function EventsOptionsPage(props: PageProps<"/events/options">) {
  await requireActor();
  return <ListingOptionsPage state={parseListingSearchParams("events", await props.searchParams)} />;
}
