import type { Metadata } from "next";
import { ListingPage } from "@/components/listing/listing-page";
import { requireActor } from "@/lib/auth/session";
import { resolveListing } from "@/lib/listing-page/resolve";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage(props: PageProps<"/events">) {
  const actor = await requireActor();
  const resolved = await resolveListing(actor, "events", await props.searchParams);
  return <ListingPage actor={actor} resolved={resolved} />;
}
