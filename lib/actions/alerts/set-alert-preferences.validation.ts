import { z } from "zod";

/** A checkbox: "on" when ticked, absent when not (a browser sends nothing for an unticked box). */
const checkbox = z
  .literal("on", { error: "That is not a choice of this form." })
  .optional()
  .transform((value) => value === "on");

export const setAlertPreferencesSchema = z.object({
  emailChanges: checkbox,
  emailHealth: checkbox,
});
