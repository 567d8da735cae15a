import Link from "next/link";
import type { FindingSubject } from "@/lib/health/types";

const KIND_LABELS: Record<FindingSubject["kind"], string> = { group: "Group", webhook: "Webhook", event: "Event" };

/** Where a finding's record is shown: a group's page, a webhook's card on it, an event's page. */
export function subjectHref(subject: FindingSubject): string | null {
  if (subject.kind === "group") return `/webhook-groups/${subject.id}`;
  if (subject.kind === "event") return `/events/${subject.id}`;
  return subject.groupId ? `/webhook-groups/${subject.groupId}#webhook-${subject.id}` : null;
}

/** The records a finding is about, each linked ("Group Finance ledger", "Webhook CRM sync"…). */
export function SubjectLinks({ subjects }: { subjects: readonly FindingSubject[] }) {
  if (subjects.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
      {subjects.map((subject) => {
        const href = subjectHref(subject);
        const label = `${KIND_LABELS[subject.kind]} ${subject.name || `#${subject.id}`}`;
        return (
          <li key={`${subject.kind}-${subject.id}`} className="min-w-0 break-words">
            {href ? (
              <Link href={href} className="text-brand-700 underline" data-testid="finding-link">
                {label}
              </Link>
            ) : (
              label
            )}
          </li>
        );
      })}
    </ul>
  );
}
