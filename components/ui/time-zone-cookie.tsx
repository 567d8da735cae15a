"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { TIME_ZONE_COOKIE } from "@/lib/time/format";

/**
 * Tells the server the browser's time zone, in a cookie, so pages write times in it (components/ui/time.tsx).
 * Set on the first load (or after the zone changed), then the page is rendered again once with it.
 */
export function TimeZoneCookie() {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone) return;
    const value = encodeURIComponent(zone);
    const current = document.cookie.split("; ").find((entry) => entry.startsWith(`${TIME_ZONE_COOKIE}=`));
    if (current === `${TIME_ZONE_COOKIE}=${value}`) return;
    document.cookie = `${TIME_ZONE_COOKIE}=${value}; path=/; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
    // Only a page that shows times needs drawing again.
    if (document.querySelector("time")) router.refresh();
  }, [router]);
  return null;
}
