/**
 * What someone types right after ⌘K, before the palette can take it: before the page hydrates (the
 * launcher's shortcut is not listening yet) and while the palette's code loads on its first opening
 * (components/shell/palette-launcher.tsx loads it on demand). Those keystrokes used to go nowhere:
 * "zapier h" typed at once became "pier h". A small script in the page (TYPE_AHEAD_SCRIPT, run as
 * the header is parsed) keeps them in `window.__emsTypeAhead` until the palette's input takes them.
 *
 * The script is the one place keys are kept; the launcher only switches it on (`expectTyping`) and
 * the palette takes what it holds (`takeTyped`) once its input has the focus, which ends the keeping.
 */
export interface TypeAhead {
  /** Keys are being kept for the palette. */
  open: boolean;
  /** What was typed meanwhile (Backspace removes the last character). */
  typed: string;
  /** The launcher listens for ⌘K itself from now on. */
  hydrated: boolean;
}

declare global {
  interface Window {
    __emsTypeAhead?: TypeAhead;
  }
}

// Plain ES5 in a string: it runs before any bundle, under the page's nonce. Keys with a modifier,
// and keys aimed at a field, are left alone (a person typing into a form keeps their text).
export const TYPE_AHEAD_SCRIPT = `(function(){var s=window.__emsTypeAhead={open:false,typed:"",hydrated:false};document.addEventListener("keydown",function(e){if(!s.hydrated&&(e.metaKey||e.ctrlKey)&&!e.altKey&&!e.shiftKey&&e.key.toLowerCase()==="k"){e.preventDefault();s.open=true;s.typed="";return}if(!s.open||e.metaKey||e.ctrlKey||e.altKey)return;var t=e.target;if(t&&(t.tagName==="INPUT"||t.tagName==="TEXTAREA"||t.isContentEditable))return;if(e.key==="Backspace"){s.typed=s.typed.slice(0,-1);e.preventDefault()}else if(e.key.length===1){s.typed+=e.key;e.preventDefault()}},true)})();`;

/** The launcher takes over the shortcut; true when ⌘K was pressed before it could listen. */
export function takeOverShortcut(): boolean {
  const state = window.__emsTypeAhead;
  if (!state) return false;
  state.hydrated = true;
  return state.open;
}

/** The palette is opening: keep what is typed until its input takes it. */
export function expectTyping(): void {
  const state = window.__emsTypeAhead;
  if (!state) return;
  state.open = true;
  state.typed = "";
}

/** What was typed since the palette was asked for; keys go to the focused input from now on. */
export function takeTyped(): string {
  const state = window.__emsTypeAhead;
  if (!state) return "";
  const typed = state.typed;
  state.open = false;
  state.typed = "";
  return typed;
}
