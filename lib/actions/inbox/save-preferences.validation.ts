import { z } from "zod";
import { INBOX_KINDS, type InboxKind } from "@/lib/inbox/kinds";
import type { InboxPreferences } from "@/lib/inbox/preferences";

/** A checkbox: "on" when ticked, absent when not (a browser sends nothing for an unticked box). */
const checkbox = z
  .literal("on", { error: "That is not a choice of this form." })
  .optional()
  .transform((value) => value === "on");

const fields = Object.fromEntries(INBOX_KINDS.flatMap((kind) => [[`email.${kind}`, checkbox] as const, [`slack.${kind}`, checkbox] as const]));

/** `email.<kind>` and `slack.<kind>` for every kind of inbox item; every kind is answered (unticked: off). */
export const savePreferencesSchema = z
  .object(fields)
  .transform(
    (input) =>
      Object.fromEntries(
        INBOX_KINDS.map((kind: InboxKind) => [kind, { email: input[`email.${kind}`] === true, slack: input[`slack.${kind}`] === true }]),
      ) as InboxPreferences,
  );
