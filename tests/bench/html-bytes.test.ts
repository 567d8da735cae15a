// bench:lighthouse's split of a page's HTML (bench/html-bytes.ts): markup, the inline RSC payload,
// other inline scripts and styles, and the class attributes of the markup.
import { describe, expect, it } from "vitest";
import { htmlBytes } from "../../bench/html-bytes";

const rsc = '<script nonce="n">self.__next_f.push([1,"0:[\\"$\\",\\"div\\"]"])</script>';
const other = "<script>(function(){window.x=1})()</script><style>.a{color:red}</style>";
const external = '<script src="/_next/static/chunks/a.js" async=""></script>';
const markup = `<!DOCTYPE html><html><head>${external}</head><body><main class="p-4"><p class="text-sm">Rows</p></main>`;

describe("htmlBytes", () => {
  it("counts the RSC payload, other inline blocks and the markup apart, adding up to the whole", () => {
    const html = `${markup}${rsc}${other}</body></html>`;
    const bytes = htmlBytes(html);
    expect(bytes.total).toBe(Buffer.byteLength(html));
    expect(bytes.rscPayload).toBe(Buffer.byteLength(rsc));
    expect(bytes.otherInline).toBe(Buffer.byteLength(other));
    expect(bytes.markup).toBe(bytes.total - bytes.rscPayload - bytes.otherInline);
    expect(bytes.gzip).toBeGreaterThan(0);
  });

  it("keeps a script with src in the markup: what it loads is not inline", () => {
    expect(htmlBytes(external).markup).toBe(Buffer.byteLength(external));
    expect(htmlBytes(external).rscPayload + htmlBytes(external).otherInline).toBe(0);
  });

  it("counts the Suspense boundaries streamed after the first flush", () => {
    expect(htmlBytes(markup).streamedBoundaries).toBe(0);
    expect(htmlBytes(`${markup}<div hidden id="S:0"><p>a</p></div><div hidden id="S:1"></div>`).streamedBoundaries).toBe(2);
  });

  it("counts class attributes in the markup only, in UTF-8 bytes", () => {
    const html = `<p class="é">x</p><script>self.__next_f.push([1,"<p class=\\"ignored\\">"])</script>`;
    expect(htmlBytes(html).classAttributes).toBe(Buffer.byteLength(' class="é"'));
  });
});
