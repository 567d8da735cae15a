import "server-only";
import type { Actor } from "@/lib/access/actor";
import type { ListingFailure } from "@/lib/ems-access/shared-read";
import { CHECKS, type RuleId } from "@/lib/setup/checks";
import type { SetupUpdating } from "@/lib/setup/stored-results";
import type { Finding } from "./types";
import { loadHealthView } from "./view";

/**
 * The ids of the records a check finds (the kind it looks at, lib/setup/checks.ts), each once, in
 * ascending order: the order a list filtered by the check pages in. Unmuted findings only, as
 * Health lists them by default and counts them in the navigation.
 */
export function checkSubjectIds(findings: readonly Finding[], ruleId: RuleId): number[] {
  const kind = CHECKS[ruleId].looksAt;
  const ids = new Set<number>();
  for (const finding of findings) {
    if (finding.ruleId !== ruleId) continue;
    for (const subject of finding.subjects) if (subject.kind === kind) ids.add(subject.id);
  }
  return [...ids].sort((a, b) => a - b);
}

export type CheckSubjects = { kind: "ok"; ids: number[]; updating: SetupUpdating | null } | ListingFailure;

/**
 * What a check finds in this person's account, from Health's stored result (lib/health/view.ts:
 * no whole-setup work while the setup is unchanged; while a plan applies, the result as it was,
 * marked `updating`). A failure is the listing's state to show.
 */
export async function loadCheckSubjects(actor: Actor, ruleId: RuleId): Promise<CheckSubjects> {
  const view = await loadHealthView(actor);
  if (view.kind !== "ok") return view;
  return { kind: "ok", ids: checkSubjectIds(view.active, ruleId), updating: view.updating };
}
