import { KeyboardNavigation } from "./keyboard-navigation";
import { requestIsMac } from "./platform";

/**
 * The portal's keyboard (j/k and arrows between a list's rows, Enter, "g" then a letter, "?",
 * Escape): mounted once by the portal's layout. The server says whether the shortcuts dialog writes
 * ⌘K or Ctrl K.
 */
export async function KeyboardShortcuts() {
  return <KeyboardNavigation mac={await requestIsMac()} />;
}
