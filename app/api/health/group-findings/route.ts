import { z } from "zod";
import { authedRoute, queryObject } from "@/lib/actions/route";
import { jsonResponse } from "@/lib/actions/route-errors";
import { findingsByGroup } from "@/lib/health/list";
import { loadHealthReport } from "@/lib/health/report";

export const dynamic = "force-dynamic";

const idsSchema = z
  .string({ error: "Name the groups: ids=1,2,3." })
  .max(2_400, "At most 200 groups at a time.")
  .transform((text) => text.split(",").filter(Boolean))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,10}$/, "Group ids are whole numbers of up to 10 digits.")
          .transform(Number),
      )
      .min(1, "Name at least one group.")
      .max(200, "At most 200 groups at a time."),
  );

/**
 * GET /api/health/group-findings?ids=1,2,3: the unmuted health findings of each of these groups (its
 * own and its webhooks'), by severity, as the Health page counts them with the caller's own
 * credentials. The groups list asks after it has drawn its rows (components/listing/group-findings.tsx),
 * so its page view keeps its few database round trips. `{ available: false }` when Health cannot be read.
 */
export const GET = authedRoute({ name: "health.group-findings", query: queryObject({ ids: idsSchema }) }, async ({ ids }, { actor }) => {
  const report = await loadHealthReport(actor);
  if (report.kind !== "ok") return jsonResponse({ available: false, counts: {} });
  const counts = Object.fromEntries(findingsByGroup(report.active, new Set(ids)));
  return jsonResponse({ available: true, counts });
});
