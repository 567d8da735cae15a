"use client";

import { useEffect } from "react";
import { usePathname, useRouter } from "next/navigation";

/** The anchors of the one long Settings page that was, and the section each now lives in. */
const SECTION_OF_ANCHOR: Record<string, string> = {
  credentials: "/settings/credentials",
  "credentials-heading": "/settings/credentials",
  budget: "/settings/budget",
  "budget-heading": "/settings/budget",
  history: "/settings/tracking",
  "history-heading": "/settings/tracking",
  tracking: "/settings/tracking",
  alerts: "/settings/alerts",
  "alerts-heading": "/settings/alerts",
};

/**
 * An old link such as /settings#history-heading: /settings redirects to the credentials (a
 * redirect keeps the fragment), and this sends it on to the section the anchor meant.
 */
export function LegacySettingsAnchor() {
  const pathname = usePathname();
  const router = useRouter();
  useEffect(() => {
    const section = SECTION_OF_ANCHOR[window.location.hash.slice(1)];
    if (section && section !== pathname && pathname.startsWith("/settings")) router.replace(section);
  }, [pathname, router]);
  return null;
}
