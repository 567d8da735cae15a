import "server-only";
import { cookies } from "next/headers";
import { TIME_ZONE_COOKIE, viewerZoneOf } from "./format";

/** The viewer's time zone for this request (the browser's, from its cookie), or UTC with `known: false`. */
export async function viewerZone(): Promise<{ zone: string; known: boolean }> {
  return viewerZoneOf((await cookies()).get(TIME_ZONE_COOKIE)?.value);
}
