"use server";

import { authedAction } from "@/lib/actions/pipeline";
import { draftReapply } from "@/lib/plans/drift-findings";
import { showPlan } from "./show-plan";
import { driftFindingSchema } from "./drift-finding.validation";

/**
 * Anyone who may draft a plan (lib/plans/draft.ts checks the credential's account): drafts the plan
 * that sets the applied plan's values again on the drifted record, and shows it for review. A draft
 * changes nothing in the EMS: approving and applying it need the recent password, as any plan's do.
 */
export const reapplyDriftAction = authedAction({ name: "plans.reapply-drift", schema: driftFindingSchema }, async (input, { actor, ip }) =>
  showPlan(await draftReapply(actor, input.findingId, { ip })),
);
