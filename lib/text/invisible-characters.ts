/**
 * The characters that change how text reads without being seen: the one definition for text the
 * portal shows (removed by `visibleText`) and text people type for others to see (refused when
 * `hasInvisibleCharacters`).
 *
 * - bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates,
 *   U+200E/U+200F marks, U+061C): `\u202Eevil` shows as "live", so a name can pose as another;
 * - every other format character (Unicode category Cf: zero-width space and non-joiner, word joiner,
 *   byte-order mark, soft hyphen, invisible operators, tag characters): "al\u200Bice" looks like
 *   "alice" but is not;
 * - the other default-ignorable code points (Hangul fillers, the combining grapheme joiner), which
 *   render as nothing;
 * - control characters (Cc) other than tab, line feed and carriage return.
 *
 * Kept: variation selectors (they choose an emoji's colour form) and a zero-width joiner between two
 * emoji (it makes 👩‍💻 one picture); both only change how visible characters are drawn.
 */

const CANDIDATE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const CANDIDATES = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const KEPT_CONTROLS = new Set(["\t", "\n", "\r"]);
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
const ZERO_WIDTH_JOINER = "\u200D";
const EMOJI_BEFORE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

function isKept(character: string, offset: number, text: string): boolean {
  if (KEPT_CONTROLS.has(character) || VARIATION_SELECTOR.test(character)) return true;
  if (character !== ZERO_WIDTH_JOINER) return false;
  return EMOJI_BEFORE.test(text.slice(Math.max(0, offset - 2), offset)) && EMOJI_AFTER.test(text.slice(offset + 1, offset + 3));
}

/** The text with the invisible characters above removed (most text has none: then it is returned as is). */
export function visibleText(text: string): string {
  if (!CANDIDATE.test(text)) return text;
  return text.replace(CANDIDATES, (character: string, offset: number, whole: string) => (isKept(character, offset, whole) ? character : ""));
}

/** True when typed text holds a character `visibleText` would remove (tabs and line breaks are allowed). */
export function hasInvisibleCharacters(text: string): boolean {
  return visibleText(text) !== text;
}

/** The message of a typed field refused for them. */
export const INVISIBLE_CHARACTERS_MESSAGE = "has invisible control characters; type it again.";

/**
 * Every string inside a parsed JSON value made visible (`visibleText`), in place: objects and
 * arrays keep their shape and identity. For answers from elsewhere (an EMS API) and records stored
 * from them, before they are shown.
 */
export function visibleTextIn<T>(value: T): T {
  if (typeof value === "string") return visibleText(value) as T;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const cleaned = visibleTextIn(value[index]);
      if (cleaned !== value[index]) value[index] = cleaned;
    }
    return value;
  }
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const cleaned = visibleTextIn(record[key]);
      if (cleaned !== record[key]) record[key] = cleaned;
    }
  }
  return value;
}
