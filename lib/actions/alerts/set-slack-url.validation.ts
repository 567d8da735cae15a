import { z } from "zod";
import { checkSlackUrl } from "@/lib/alerts/slack-url";

/** A tracker's id as the database makes them (cuid); anything else is a tracker that does not exist. */
export const trackerIdSchema = z.string().regex(/^[a-z0-9]{1,64}$/, { error: "That change tracker no longer exists." });

/**
 * The tracker and its Slack-compatible webhook URL; empty clears it. The URL's form and the
 * destination policy are checked here (HTTPS, a public host, no user name); its addresses after DNS
 * when it is saved (lib/alerts/settings.ts).
 */
export const setSlackUrlSchema = z.object({
  trackerId: trackerIdSchema,
  url: z
    .string()
    .default("")
    .transform((value, ctx) => {
      if (value.trim() === "") return null;
      const checked = checkSlackUrl(value);
      if (!checked.ok) {
        ctx.addIssue({ code: "custom", message: checked.message });
        return z.NEVER;
      }
      return checked.url;
    }),
});
