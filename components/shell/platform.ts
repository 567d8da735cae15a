import "server-only";
import { headers } from "next/headers";

/**
 * Whether the browser asking runs on a Mac (or an iPhone or iPad), where shortcuts are written ⌘K,
 * decided on the server from the request, so that the first HTML already says it and nothing flips
 * once the page hydrates. Chromium's `Sec-CH-UA-Platform` first, else the user agent (iPadOS
 * Safari calls itself a Mac, which is what its keyboard says too).
 */
export async function requestIsMac(): Promise<boolean> {
  const asked = await headers();
  const platform = asked.get("sec-ch-ua-platform");
  if (platform) return /mac|ios/i.test(platform);
  return /Macintosh|Mac OS X|iPhone|iPad/.test(asked.get("user-agent") ?? "");
}
