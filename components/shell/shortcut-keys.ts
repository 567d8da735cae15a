/**
 * The portal's keyboard shortcuts as data: the keyboard component (keyboard-navigation.tsx) acts on
 * them and the "?" dialog (shortcuts-dialog.tsx) lists them, so the two cannot disagree.
 */

/** "g" then one of these keys goes to the page. */
export const GO_TO: Readonly<Record<string, { href: string; label: string }>> = {
  w: { href: "/webhooks", label: "Webhooks" },
  g: { href: "/webhook-groups", label: "Webhook groups" },
  e: { href: "/events", label: "Events" },
  h: { href: "/health", label: "Health" },
  c: { href: "/coverage", label: "Coverage" },
};

/** A second key this long after "g" still counts as its pair. */
export const GO_TO_WINDOW_MS = 1500;

/** Sent on window to open the shortcuts dialog from elsewhere (the palette's "Keyboard shortcuts"). */
export const SHOW_SHORTCUTS_EVENT = "ems:show-shortcuts";

export interface ShortcutSection {
  title: string;
  shortcuts: { keys: string[][]; does: string }[];
}

/** Every shortcut, for the dialog; `keys` lists alternatives, each a sequence of keys. */
export function shortcutSections(mac: boolean): ShortcutSection[] {
  return [
    {
      title: "Anywhere",
      shortcuts: [
        { keys: [[mac ? "⌘K" : "Ctrl K"]], does: "Search webhooks, events, pages and actions" },
        { keys: [["?"]], does: "Show these shortcuts" },
        { keys: [["Esc"]], does: "Close a menu, popover, dialog or side panel" },
      ],
    },
    {
      title: "Lists (webhooks, groups, events, Health, views)",
      shortcuts: [
        { keys: [["j"], ["↓"]], does: "Next row" },
        { keys: [["k"], ["↑"]], does: "Previous row" },
        { keys: [["Enter"]], does: "Open the row" },
      ],
    },
    {
      title: "Go to",
      shortcuts: Object.entries(GO_TO).map(([key, page]) => ({ keys: [["g", key]], does: page.label })),
    },
  ];
}
