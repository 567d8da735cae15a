import { z } from "zod";
import { trackerIdSchema } from "./set-slack-url.validation";

export const sendTestAlertSchema = z.object({
  trackerId: trackerIdSchema,
  channel: z.enum(["slack", "email"], { error: "Choose Slack or email." }),
});
