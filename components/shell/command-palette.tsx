import { PaletteLauncher, type PalettePage } from "./palette-launcher";
import { requestIsMac } from "./platform";

export type { PalettePage };

/**
 * The command palette's launcher in the header (components/shell/palette-launcher.tsx), told by the
 * server whether to write its shortcut ⌘K or Ctrl K: the first HTML is right, nothing flips.
 */
export async function CommandPalette({ pages }: { pages: PalettePage[] }) {
  return <PaletteLauncher pages={pages} mac={await requestIsMac()} />;
}
