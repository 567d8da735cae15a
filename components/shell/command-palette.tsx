import { headers } from "next/headers";
import { nonceOf } from "@/lib/security/content-security-policy";
import { PaletteLauncher, type PalettePage } from "./palette-launcher";
import { requestIsMac } from "./platform";
import { TYPE_AHEAD_SCRIPT } from "./type-ahead";

export type { PalettePage };

/**
 * The command palette's launcher in the header (components/shell/palette-launcher.tsx), told by the
 * server whether to write its shortcut ⌘K or Ctrl K: the first HTML is right, nothing flips.
 */
export async function CommandPalette({ pages }: { pages: PalettePage[] }) {
  const policy = (await headers()).get("content-security-policy");
  return (
    <>
      {/* Keeps the keys typed after ⌘K until the palette can take them (type-ahead.ts). */}
      <script nonce={policy ? (nonceOf(policy) ?? undefined) : undefined} dangerouslySetInnerHTML={{ __html: TYPE_AHEAD_SCRIPT }} />
      <PaletteLauncher pages={pages} mac={await requestIsMac()} />
    </>
  );
}
