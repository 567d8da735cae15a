import { z } from "zod";
import type { GroupValues } from "@/lib/plans/edits";
import { emailList, headerEditsOf, headerRowProblems, plainText, recordId, title } from "./plan-fields.validation";

export const draftGroupEditSchema = z
  .looseObject({ id: recordId, title, name: plainText(255, "The name"), notification_emails: emailList })
  .superRefine(headerRowProblems)
  .transform((input): { id: number; title?: string; values: GroupValues } => ({
    id: input.id,
    title: input.title,
    values: { name: input.name, notification_emails: input.notification_emails, headers: headerEditsOf(input as Record<string, unknown>) },
  }));
