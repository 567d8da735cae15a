import { RecordNotFound } from "@/components/listing/record-not-found";

export default function GroupNotFound() {
  return <RecordNotFound title="No such webhook group in your account" backHref="/webhook-groups" backLabel="Back to the list" testId="group-not-found" />;
}
