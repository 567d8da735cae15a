import { HEADER_NAME_MESSAGE, HEADER_VALUE_LINE_MESSAGE, isHeaderName, isHeaderValueLine } from "@/lib/http/header-rules";
import { BULK_KINDS, type GroupBulkEdit, type WebhookBulkEdit } from "@/lib/plans/bulk";
import { MAX_PLAN_OPERATIONS } from "@/lib/plans/limits";
import { hasInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE } from "@/lib/text/invisible-characters";
import { z } from "zod";
import { HEADER_VALUE_MAX, HEADER_VALUE_MESSAGE, TOO_MANY_RECORDS, emailList, emsId, idList, title } from "./plan-fields.validation";

/** A bulk edit over ids chosen by a listing, a coverage cell or a health finding. */
export const draftBulkSchema = z
  .object({
    title,
    resource: z.enum(["webhooks", "webhook-groups"], { error: "Choose what to change." }),
    ids: z
      .string()
      // Ids of at most 10 digits and a comma each: a longer field names more records than a plan holds.
      .max(MAX_PLAN_OPERATIONS * 20, TOO_MANY_RECORDS)
      .transform((text) => [...new Set(text.split(",").filter(Boolean).map(Number))])
      .pipe(
        z
          .array(emsId("The selection names a record that does not exist; choose the records again."))
          .min(1, "Nothing is selected.")
          .max(MAX_PLAN_OPERATIONS, TOO_MANY_RECORDS),
      ),
    edit: z.enum(BULK_KINDS, { error: "Choose a change." }),
    from: z.string().trim().max(255).default(""),
    to: z.string().trim().max(255).default(""),
    key: z
      .string()
      .trim()
      .refine((text) => !hasInvisibleCharacters(text), `The header name ${INVISIBLE_CHARACTERS_MESSAGE}`)
      .refine((text) => text === "" || isHeaderName(text), HEADER_NAME_MESSAGE)
      .default(""),
    value: z.string().max(HEADER_VALUE_MAX, HEADER_VALUE_MESSAGE).refine(isHeaderValueLine, HEADER_VALUE_LINE_MESSAGE).default(""),
    enabled: z.enum(["true", "false"]).default("true"),
    eventIds: idList,
    contentType: z.string().max(16).default("json"),
    // 0: none chosen (the edit that needs one says so).
    groupId: z.coerce
      .number({ error: "That webhook group does not exist." })
      .pipe(
        z
          .number({ error: "That webhook group does not exist." })
          .int("That webhook group does not exist.")
          .nonnegative("That webhook group does not exist.")
          .max(2_147_483_647, "That webhook group does not exist."),
      )
      .default(0),
    emails: emailList.default([]),
  })
  .transform((input, context): { title?: string; resource: "webhooks" | "webhook-groups"; ids: number[]; edit: WebhookBulkEdit | GroupBulkEdit } => {
    const fail = (path: string, message: string) => {
      context.addIssue({ code: "custom", path: [path], message });
      return z.NEVER;
    };
    const hostLike = /^[a-z0-9.-]+(:\d{1,5})?$/i;
    const edit = ((): WebhookBulkEdit | GroupBulkEdit => {
      switch (input.edit) {
        case "replace-host":
          if (!hostLike.test(input.from)) return fail("from", "Enter the host to replace, like old.example.com.");
          if (!hostLike.test(input.to)) return fail("to", "Enter the new host, like new.example.com.");
          return { kind: "replace-host", from: input.from, to: input.to };
        case "use-https":
          return { kind: "use-https" };
        case "set-header":
          if (input.key === "") return fail("key", "Name the header.");
          if (input.value === "") return fail("value", "Give the header a value.");
          return { kind: "set-header", key: input.key, value: input.value };
        case "remove-header":
          if (input.key === "") return fail("key", "Name the header to remove.");
          return { kind: "remove-header", key: input.key };
        case "set-enabled":
          return { kind: "set-enabled", enabled: input.enabled === "true" };
        case "add-events":
        case "remove-events":
          if (input.eventIds.length === 0) return fail("eventIds", "List at least one event id.");
          return { kind: input.edit, eventIds: input.eventIds };
        case "set-content-type":
          return { kind: "set-content-type", contentType: input.contentType };
        case "move-to-group":
          if (input.groupId <= 0) return fail("groupId", "Choose the group to move them to.");
          return { kind: "move-to-group", groupId: input.groupId };
        case "set-notification-emails":
          return { kind: "set-notification-emails", emails: input.emails };
        case "add-notification-email":
          if (input.emails.length !== 1) return fail("emails", "Enter one address to add.");
          return { kind: "add-notification-email", email: input.emails[0] };
      }
    })();
    const forGroups = edit.kind === "set-notification-emails" || edit.kind === "add-notification-email";
    if (forGroups !== (input.resource === "webhook-groups")) return fail("edit", forGroups ? "That change is for webhook groups." : "That change is for webhooks.");
    return { title: input.title, resource: input.resource, ids: input.ids, edit };
  });
