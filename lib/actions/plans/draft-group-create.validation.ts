import { z } from "zod";
import type { GroupValues } from "@/lib/plans/edits";
import { emailList, headerEditsOf, headerRowProblems, plainText, title } from "./plan-fields.validation";

/** A new group: its name, addresses and headers (every header row an addition). */
export const draftGroupCreateSchema = z
  .looseObject({ title, name: plainText(255, "The name"), notification_emails: emailList })
  .superRefine(headerRowProblems)
  .transform((input): { title?: string; values: GroupValues & { name: string } } => ({
    title: input.title,
    values: { name: input.name, notification_emails: input.notification_emails, headers: headerEditsOf(input as Record<string, unknown>) },
  }));
