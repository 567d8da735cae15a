"use client";

import { useEffect, useRef } from "react";
import { useRouter } from "next/navigation";

/**
 * The navigation's Health badge is drawn by the layout from the counts stored at the last check,
 * before this page ran the check again. When the two differ (the setup changed since), the page
 * refreshes once, so the badge shows the number the page shows. Once per visit: never a loop.
 */
export function HealthBadgeSync({ shown, errors }: { shown: number | null; errors: number }) {
  const router = useRouter();
  const refreshed = useRef(false);
  useEffect(() => {
    if (shown === errors || refreshed.current) return;
    refreshed.current = true;
    router.refresh();
  }, [shown, errors, router]);
  return null;
}
