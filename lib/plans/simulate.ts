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
  // Groups are copied (with their list of webhooks) only when an operation touches them: a copy of
  // every group of a 5,000-group account, and a scan of every group for each webhook updated, was
  // most of a large plan page's garbage and time.
  const groups = new Map<number, WebhookGroup>(data.groups.map((group) => [group.id, group]));
  const copied = new Set<number>();
  const writable = (id: number): WebhookGroup | undefined => {
    const group = groups.get(id);
    if (!group || copied.has(id)) return group;
    const copy = { ...group, webhooks: [...(group.webhooks ?? [])] };
    groups.set(id, copy);
    copied.add(id);
    return copy;
  };
  /** Which group holds each webhook now. */
  const home = new Map<number, number>();
  for (const group of data.groups) for (const hook of group.webhooks ?? []) if (!home.has(hook.id)) home.set(hook.id, group.id);
  let nextNewId = -1;

  const findHook = (id: number): { group: WebhookGroup; index: number } | null => {
    const groupId = home.get(id);
    const group = groupId === undefined ? undefined : writable(groupId);
    const index = group ? group.webhooks!.findIndex((hook) => hook.id === id) : -1;
    return group && index >= 0 ? { group, index } : null;
  };

  for (const op of operations) {
    const verb = verbOf(op.operation);
    const changes = op.changes as Record<string, unknown>;
    if (resourceOf(op.operation) === "webhook-groups") {
      if (verb === "create") {
        const id = nextNewId--;
        groups.set(id, { ...(changes as Partial<WebhookGroup>), id, webhooks: [] } as WebhookGroup);
        copied.add(id);
      } else if (op.recordId !== undefined && groups.has(op.recordId)) {
        if (verb === "delete") {
          groups.delete(op.recordId);
          copied.delete(op.recordId);
        } else groups.set(op.recordId, { ...writable(op.recordId)!, ...(changes as Partial<WebhookGroup>) });
      }
      continue;
    }
    if (verb === "create") {
      const hook = { enabled: true, ...(changes as Partial<Webhook>), id: nextNewId-- } as Webhook;
      const group = hook.group_id == null ? undefined : writable(hook.group_id);
      group?.webhooks!.push(hook);
      if (group) home.set(hook.id, group.id);
      continue;
    }
    if (op.recordId === undefined) continue;
    const found = findHook(op.recordId);
    if (!found) continue;
    const current = found.group.webhooks![found.index];
    found.group.webhooks!.splice(found.index, 1);
    home.delete(op.recordId);
    if (verb === "delete") continue;
    const next = { ...current, ...(changes as Partial<Webhook>) } as Webhook;
    const target = next.group_id == null ? undefined : next.group_id === found.group.id ? found.group : writable(next.group_id);
    if (target === found.group) found.group.webhooks!.splice(found.index, 0, next);
    else target?.webhooks!.push(next);
    if (target) home.set(next.id, target.id);
  }
  return { groups: [...groups.values()], events: data.events };
}
