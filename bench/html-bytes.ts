/**
 * What a page's HTML is made of, in bytes (issue 38: "render what is seen; send the RSC payload
 * once"): the markup a browser paints, the inline RSC payload (React's `self.__next_f.push(...)`
 * scripts, which hydration reads: every prop of a client component and every element of the tree
 * again, as data), other inline scripts and styles, and how much of the markup is `class`
 * attributes (a long utility string repeated on every row is paid per row, twice: markup and payload).
 */
import { gzipSync } from "node:zlib";

export interface HtmlBytes {
  /** The whole document as sent, uncompressed. */
  total: number;
  /** The same, gzip-compressed (what the wire carries from a server that compresses). */
  gzip: number;
  /** Everything but inline scripts and styles: what is painted (elements, attributes, text). */
  markup: number;
  /** The contents of the inline `self.__next_f.push` scripts. */
  rscPayload: number;
  /** Other inline scripts and inline styles. */
  otherInline: number;
  /** The `class="…"` attributes of the markup (included in `markup`). */
  classAttributes: number;
  /**
   * Suspense boundaries that came after the first flush (React's hidden `<div id="S:…">`): each is
   * painted only when its script swaps it in, and React batches those reveals (~300 ms after the
   * first paint), so a list that streams paints its rows late.
   */
  streamedBoundaries: number;
}

const INLINE_BLOCK = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/gi;
const CLASS_ATTRIBUTE = /\sclass="[^"]*"/g;

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

export function htmlBytes(html: string): HtmlBytes {
  let rscPayload = 0;
  let otherInline = 0;
  let inlineBlocks = 0;
  for (const [whole, tag, attributes, body] of html.matchAll(INLINE_BLOCK)) {
    // A script with src carries nothing inline: its tag is markup, what it loads is counted by the browser.
    if (tag.toLowerCase() === "script" && /\ssrc=/i.test(attributes)) continue;
    inlineBlocks += byteLength(whole);
    if (tag.toLowerCase() === "script" && body.trimStart().startsWith("self.__next_f")) rscPayload += byteLength(whole);
    else otherInline += byteLength(whole);
  }
  const markupText = html.replace(INLINE_BLOCK, (whole, _tag: string, attributes: string) => (/\ssrc=/i.test(attributes) ? whole : ""));
  let classAttributes = 0;
  for (const [attribute] of markupText.matchAll(CLASS_ATTRIBUTE)) classAttributes += byteLength(attribute);
  const total = byteLength(html);
  const streamedBoundaries = markupText.match(/<div hidden(?:="")? id="S:/g)?.length ?? 0;
  return { total, gzip: gzipSync(html).length, markup: total - inlineBlocks, rscPayload, otherInline, classAttributes, streamedBoundaries };
}
