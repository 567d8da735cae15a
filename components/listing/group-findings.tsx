"use client";

import { useEffect, useState } from "react";
import { plural } from "@/lib/text/plural";

export type GroupFindingCounts = Record<string, { errors: number; warnings: number; notices: number }>;

/**
 * The health findings of the groups on the page, asked once the rows are drawn
 * (GET /api/health/group-findings): the list's own page view stays as light as it was, and the
 * counts come a moment later. null until they come, or when Health cannot be read.
 */
export function useGroupFindings(ids: readonly string[] | null): GroupFindingCounts | null {
  const key = ids?.join(",") ?? "";
  const [counts, setCounts] = useState<{ key: string; counts: GroupFindingCounts } | null>(null);
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    fetch(`/api/health/group-findings?ids=${key}`, { signal: controller.signal, headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ available: boolean; counts: GroupFindingCounts }>) : null))
      .then((body) => {
        if (body?.available) setCounts({ key, counts: body.counts });
      })
      .catch((error: unknown) => {
        // Leaving the page aborts it; any other failure is a nicety lost: the cell shows no findings.
        if (!(error instanceof DOMException && error.name === "AbortError")) console.warn("group findings could not be read", error);
      });
    return () => controller.abort();
  }, [key]);
  return counts?.key === key ? counts.counts : null;
}

/** "2 errors", "1 warning", or "no findings", linked to the group's findings on Health. */
export function GroupFindingsBadge({ id, counts }: { id: string; counts: GroupFindingCounts | null }) {
  if (!counts) return null;
  const found = counts[id];
  const href = `/health?group=${encodeURIComponent(id)}`;
  if (!found || found.errors + found.warnings + found.notices === 0) {
    return (
      <a href={href} className="findings-none" data-testid="group-findings">
        no findings
      </a>
    );
  }
  const [count, noun, tone] =
    found.errors > 0
      ? [found.errors, "error", "findings-error"]
      : found.warnings > 0
        ? [found.warnings, "warning", "findings-warning"]
        : [found.notices, "notice", "findings-notice"];
  return (
    <a
      href={href}
      className={tone}
      data-testid="group-findings"
      title={`${found.errors} errors, ${found.warnings} warnings, ${found.notices} notices: see them on Health`}
    >
      {plural(count, noun)}
    </a>
  );
}
