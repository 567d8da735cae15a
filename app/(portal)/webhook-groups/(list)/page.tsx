import type { Metadata } from "next";
import { ListingPage } from "@/components/listing/listing-page";
import { requireActor } from "@/lib/auth/session";
import { resolveListing } from "@/lib/listing-page/resolve";

export const metadata: Metadata = { title: "Webhook groups" };

export default async function WebhookGroupsPage(props: PageProps<"/webhook-groups">) {
  const actor = await requireActor();
  const resolved = await resolveListing(actor, "webhook-groups", await props.searchParams);
  return <ListingPage actor={actor} resolved={resolved} />;
}
