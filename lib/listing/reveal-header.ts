import "server-only";
import { auditByActor } from "@/lib/audit/log";
import type { Actor } from "@/lib/access/actor";
import type { EmsHeader, WebhookGroup } from "@/lib/ems";
import { SafeError } from "@/lib/errors";
import { loadGroupPage } from "./group";
import { assertMayReadHeaderValues } from "./header-value-access";

/**
 * One header of a group's page, as its "Reveal" button names it: the group, the webhook (none: the
 * group's own headers), the header's place in that list and its name. The name is checked against
 * the place, so an edit in the EMS since the page was drawn never reveals a header the person did
 * not ask for.
 */
export interface HeaderOnPage {
  groupId: number;
  webhookId?: number;
  index: number;
  name: string;
}

const NOT_IN_ACCOUNT = "There is no such webhook group in your EMS account.";

function headersOf(group: WebhookGroup, webhookId: number | undefined): { list: EmsHeader[]; webhookName?: string } {
  if (webhookId === undefined) return { list: group.headers ?? [] };
  const webhook = group.webhooks?.find((each) => each.id === webhookId);
  if (!webhook) throw new SafeError("That webhook is not in this group.", "webhook_not_in_group");
  return { list: webhook.headers ?? [], webhookName: webhook.name };
}

/**
 * The value of one header, for the person who pressed "Reveal": header values are third parties'
 * secrets, so the rule of an export with header values applies (./header-value-access.ts: a recent
 * re-authentication), the group is read the way its page reads it (the person's own credential, the
 * team's shared answer: lib/listing/group.ts), and the reveal is in the team's audit log by group,
 * webhook and header name, never the value. A group outside the person's own EMS account, a webhook
 * of another group or a header that is not there is refused with words, and nothing is recorded.
 */
export async function revealHeaderValue(actor: Actor, target: HeaderOnPage, meta: { ip: string }): Promise<{ value: string }> {
  assertMayReadHeaderValues(actor);
  const outcome = await loadGroupPage(actor, target.groupId);
  if (outcome.kind === "no-credentials") throw new SafeError("Add your EMS API credentials in Settings first.", "no_credentials");
  if (outcome.kind !== "ok") throw new SafeError(outcome.message, outcome.kind);
  const group = outcome.item;
  if (!group) throw new SafeError(NOT_IN_ACCOUNT, "group_not_found");
  const { list, webhookName } = headersOf(group, target.webhookId);
  const header = list[target.index];
  if (!header || header.key !== target.name) {
    throw new SafeError("That header is no longer there: the group was changed in the EMS. Reload the page.", "header_not_found");
  }
  await auditByActor(actor, {
    action: "webhook.header_value_revealed",
    target: target.webhookId === undefined ? `webhook-group:${group.id}` : `webhook:${target.webhookId}`,
    ip: meta.ip,
    metadata: {
      groupId: group.id,
      ...(group.name ? { groupName: group.name } : {}),
      ...(target.webhookId === undefined ? {} : { webhookId: target.webhookId, ...(webhookName ? { webhookName } : {}) }),
      header: header.key,
    },
  });
  return { value: header.value };
}
