import { RecordNotFound } from "@/components/listing/record-not-found";

export default function EventNotFound() {
  return <RecordNotFound title="No such event in your account" backHref="/events" backLabel="Back to the events" testId="event-not-found" />;
}
