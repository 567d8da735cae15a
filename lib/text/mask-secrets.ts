import { visibleText } from "./invisible-characters";

/**
 * Secrets masked out of text that came back from elsewhere (an EMS's refusal that quotes a header
 * value it was sent), before anyone sees, stores or logs it. Upstream text is cleaned for showing
 * (white space collapsed, invisible characters removed, cut to a length), and a cleaned or cut
 * quote no longer equals the secret, so each secret is looked for in every form it can take:
 *
 * - as it is, as a JSON string escapes it (the raw body of an answer), and with its white space
 *   collapsed and invisible characters removed (the cleaned message);
 * - any run of FRAGMENT or more characters of it (a quote cut short, or the secret quoted in part).
 *
 * Secrets shorter than MIN_LENGTH are left: masking "1" would garble the message, and a value that
 * short is no secret. Masking too much is harmless; masking too little is the leak.
 */
export const MASK = "•••";
const MIN_LENGTH = 4;
/** The shortest piece of a secret that is masked on its own: long enough not to match ordinary words. */
const FRAGMENT = 8;

const collapsed = (text: string) => visibleText(text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")).replace(/\s+/g, " ");

export function maskSecrets(text: string, secrets: Iterable<string>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(collapsed(secret));
    forms.add(collapsed(secret).trim());
  }
  if (forms.size === 0) return text;
  // Whole forms first, the longest first: a secret that contains another is masked whole.
  let masked = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) if (form.length >= MIN_LENGTH) masked = masked.split(form).join(MASK);
  return maskFragments(
    masked,
    [...forms].filter((form) => form.length >= FRAGMENT),
  );
}

/** Every run of FRAGMENT or more characters of `text` found inside one of `forms`, masked. */
function maskFragments(text: string, forms: string[]): string {
  if (forms.length === 0 || text.length < FRAGMENT) return text;
  const hidden = new Array<boolean>(text.length).fill(false);
  for (let start = 0; start + FRAGMENT <= text.length; start++) {
    for (const form of forms) {
      if (!form.includes(text.slice(start, start + FRAGMENT))) continue;
      let end = start + FRAGMENT;
      while (end < text.length && form.includes(text.slice(start, end + 1))) end++;
      hidden.fill(true, start, end);
    }
  }
  if (!hidden.includes(true)) return text;
  let out = "";
  for (let index = 0; index < text.length; index++) {
    if (!hidden[index]) out += text[index];
    else if (index === 0 || !hidden[index - 1]) out += MASK;
  }
  return out;
}
