import type { Webhook, WebhookGroup } from "@/lib/ems";
import type { SetupData } from "@/lib/setup/setup-data";
import { resourceOf, verbOf, type DraftOperation } from "./operations";

/**
 * The account's setup as it will be after a plan, for its impact (lib/plans/impact.ts): the same
 * records with each operation applied in order. Pure; `data` is not changed. A record the plan
 * creates gets a negative id (it has none yet); a webhook moved out of every group leaves the setup,
 * as the setup only holds webhooks inside groups (lib/setup/setup-data.ts).
 */
export function simulatePlan(data: SetupData, operations: readonly DraftOperation[]): SetupData {
  const groups = new Map<number, WebhookGroup>(data.groups.map((group) => [group.id, { ...group, webhooks: [...(group.webhooks ?? [])] }]));
  let nextNewId = -1;

  const findHook = (id: number): { group: WebhookGroup; index: number } | null => {
    for (const group of groups.values()) {
      const index = group.webhooks!.findIndex((hook) => hook.id === id);
      if (index >= 0) return { group, index };
    }
    return null;
  };

  for (const op of operations) {
    const verb = verbOf(op.operation);
    const changes = op.changes as Record<string, unknown>;
    if (resourceOf(op.operation) === "webhook-groups") {
      if (verb === "create") {
        const id = nextNewId--;
        groups.set(id, { ...(changes as Partial<WebhookGroup>), id, webhooks: [] } as WebhookGroup);
      } else if (op.recordId !== undefined && groups.has(op.recordId)) {
        if (verb === "delete") groups.delete(op.recordId);
        else groups.set(op.recordId, { ...groups.get(op.recordId)!, ...(changes as Partial<WebhookGroup>) });
      }
      continue;
    }
    if (verb === "create") {
      const hook = { enabled: true, ...(changes as Partial<Webhook>), id: nextNewId-- } as Webhook;
      const group = hook.group_id == null ? undefined : groups.get(hook.group_id);
      group?.webhooks!.push(hook);
      continue;
    }
    if (op.recordId === undefined) continue;
    const found = findHook(op.recordId);
    if (!found) continue;
    const current = found.group.webhooks![found.index];
    found.group.webhooks!.splice(found.index, 1);
    if (verb === "delete") continue;
    const next = { ...current, ...(changes as Partial<Webhook>) } as Webhook;
    const target = next.group_id == null ? undefined : groups.get(next.group_id);
    if (target === found.group) found.group.webhooks!.splice(found.index, 0, next);
    else target?.webhooks!.push(next);
  }
  return { groups: [...groups.values()], events: data.events };
}
