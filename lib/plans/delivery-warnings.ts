import "server-only";
import type { EmsHeader } from "@/lib/ems";
import { isInternalHost } from "@/lib/ems/destination";
import { resourceOf, verbOf, type DraftOperation } from "./operations";

/**
 * What a reviewer must not miss about where a webhook's deliveries go after an operation (issue 35):
 * a webhook's headers and its group's are sent with every delivery, so a new address, or a move into
 * another group, sends those credentials somewhere new; and an address can mislead (text before an
 * "@" reads as the host and is not) or point inside the EMS's own network. Shown under the operation
 * on the plan page. Header names only: values are never shown.
 */
export type GroupHeaders = (groupId: number) => readonly string[] | undefined;

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");
const listed = (names: readonly string[]) => names.map((name) => `“${name}”`).join(", ");

function parsed(value: unknown): URL | null {
  if (typeof value !== "string") return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Words about the address itself: text before its host, or a host inside a private network. */
export function addressWarnings(address: URL): string[] {
  const warnings: string[] = [];
  if (address.username || address.password) {
    const before = decodeURIComponent(address.password ? `${address.username}:…` : address.username);
    warnings.push(`The address starts with “${before}@”, which reads like a host but is not: deliveries go to ${hostOf(address)}.`);
  }
  if (isInternalHost(address)) {
    warnings.push(
      `${hostOf(address)} is an internal address (a private network, this machine or a cloud's metadata service): the EMS would deliver inside its own network, not to you.`,
    );
  }
  return warnings;
}

export function deliveryWarnings(op: DraftOperation, groupHeaders: GroupHeaders = () => undefined): string[] {
  if (resourceOf(op.operation) !== "webhooks" || verbOf(op.operation) === "delete") return [];
  const before = (op.before ?? {}) as { url?: string; group_id?: number | null; headers?: EmsHeader[] | null };
  const changes = op.changes as { url?: string; group_id?: number | null; headers?: EmsHeader[] | null };
  const created = verbOf(op.operation) === "create";
  const newAddress = "url" in changes && changes.url !== undefined && (created || changes.url !== before.url) ? parsed(changes.url) : null;
  const moved = !created && "group_id" in changes && changes.group_id !== undefined && changes.group_id !== before.group_id;
  const address = newAddress ?? parsed(before.url);
  const groupId = "group_id" in changes && changes.group_id !== undefined ? changes.group_id : (before.group_id ?? null);
  const own = (changes.headers ?? before.headers ?? []).map((header) => header.key);
  const ofGroup = groupId !== null ? (groupHeaders(groupId) ?? []) : [];

  const warnings = newAddress ? addressWarnings(newAddress) : [];
  if (newAddress && (own.length > 0 || ofGroup.length > 0)) {
    const what = [own.length ? `its headers ${listed(own)}` : "", ofGroup.length ? `its group's ${listed(ofGroup)}` : ""].filter(Boolean).join(" and ");
    const old = parsed(before.url);
    warnings.push(
      created
        ? `Every delivery carries ${what} to ${hostOf(newAddress)}.`
        : `From now on ${what} go with every delivery to ${hostOf(newAddress)}${old ? `, no longer to ${hostOf(old)}` : ""}.`,
    );
  } else if (moved && ofGroup.length > 0 && address) {
    warnings.push(`In its new group, the group's headers ${listed(ofGroup)} go with every delivery to ${hostOf(address)}.`);
  }
  return warnings;
}
