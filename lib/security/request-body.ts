/**
 * The one limit on what a request may send, counted as it is read: the `Content-Length` header is
 * only a shortcut. A chunked body has none, and a header is whatever the client wrote, so the bytes
 * themselves are counted and reading stops at the first one past the limit.
 *
 * The same number is Next.js's server action limit (`serverActions.bodySizeLimit` in
 * next.config.js). Next.js's own copy of a body for the proxy (`experimental.proxyClientMaxBodySize`)
 * is a little larger on purpose: past its limit Next.js does not refuse, it silently cuts the copy,
 * so the proxy must always see more than BODY_LIMIT_BYTES of a body that is too large
 * (tests/security/request-body.test.ts checks the two numbers together).
 */

/** 1 MB: Next.js's default server action limit, and far above any form of the portal. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How much of a body Next.js copies for the proxy. Next.js stops copying at the first chunk that
 * takes it past this number (a network read: at most 64 KiB over plain HTTP, 16 KiB over TLS), so
 * a copy cut short still holds more than BODY_LIMIT_BYTES as long as the margin exceeds one chunk.
 */
export const PROXY_BODY_COPY_BYTES = BODY_LIMIT_BYTES + 256 * 1024;

/** The body read in full, or "too-large" as soon as more than `limit` bytes came (the rest is not read). */
export type BoundedBody = { kind: "read"; bytes: Uint8Array<ArrayBuffer> } | { kind: "too-large" };

/**
 * Reads a request's body, counting every byte, and stops past `limit`. A declared length past the
 * limit is refused without reading; a smaller one is not trusted.
 */
export async function readBodyWithin(request: Request, limit: number = BODY_LIMIT_BYTES): Promise<BoundedBody> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return { kind: "too-large" };
  if (request.body === null) return { kind: "read", bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Nothing more is wanted from this body; cancelling lets its producer stop buffering it.
      await reader.cancel().catch(streamAlreadyEnded);
      return { kind: "too-large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: "read", bytes };
}

/**
 * `cancel()` rejects only when the body's stream has already ended in an error (the sender broke
 * off the upload): there is then nothing left to release, and the answer is "too large" either
 * way. The error is the sender's, not the portal's, and the proxy (where this runs) has no logger.
 */
function streamAlreadyEnded(): void {}
