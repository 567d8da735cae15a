import { z } from "zod";
import { isTriggerKey } from "@/lib/setup/triggers";
import type { TriggerKey } from "@/lib/setup/setup-data";

/** The prefix of each trigger's checkbox: `require.registrant:insert` = "on". */
export const REQUIRE_FIELD_PREFIX = "require.";

/** The form's own hidden field: a submission without it (empty, or crafted) never clears the list. */
export const REQUIRED_TRIGGERS_FORM = { name: "form", value: "required-triggers" } as const;

/** Ticked boxes become the team's required triggers; a box naming no trigger is refused. */
export const setRequiredTriggersSchema = z.record(z.string(), z.string()).transform((fields, context) => {
  if (fields[REQUIRED_TRIGGERS_FORM.name] !== REQUIRED_TRIGGERS_FORM.value) {
    context.addIssue({ code: "custom", message: "Send the required triggers from their form on the Coverage page.", path: ["form"] });
    return z.NEVER;
  }
  const triggers: TriggerKey[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith(REQUIRE_FIELD_PREFIX)) continue;
    const key = name.slice(REQUIRE_FIELD_PREFIX.length);
    if (!isTriggerKey(key)) {
      context.addIssue({ code: "custom", message: "One of the triggers is not one the EMS knows. Reload the page and try again.", path: ["form"] });
      return z.NEVER;
    }
    if (value === "on") triggers.push(key);
  }
  return { triggers };
});
