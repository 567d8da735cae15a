import { ruleById } from "@/lib/health/rules";

/**
 * How a plan the team's check policy drafted (lib/plans/policy-fixes.ts; it has no author) is named
 * wherever a plan's author shows: the plan page, the plans list, the inbox.
 */
export const POLICY_AUTHOR = "EMS Portal on behalf of the team";

/** The author's words of a plan: its author's label, or the portal's for a drafted fix, or null. */
export function authorWords(plan: { authorId: string | null; fixCheck: string | null }, label: string | null): string | null {
  if (plan.authorId === null && plan.fixCheck !== null) return POLICY_AUTHOR;
  return label;
}

/** The check a drafted fix is of, in words ("Groups without notification emails"), or null. */
export function fixCheckTitle(fixCheck: string | null): string | null {
  return fixCheck ? (ruleById(fixCheck)?.title ?? null) : null;
}
