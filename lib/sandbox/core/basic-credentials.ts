/**
 * Decodes `Authorization: Basic ...` by the contract's rule (docs/ems-api.md §2): Base64, split at the first
 * `:`, then in each part `%XX` becomes that byte and `+` a space, and the bytes are read as UTF-8.
 * Accepting `+` keeps clients that form-encode a space working; a literal `+` arrives as `%2B`.
 */
export type BasicCredentialsResult = { kind: "ok"; key: string; secret: string } | { kind: "missing" } | { kind: "malformed" };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeBasicCredentials(header: string | undefined): BasicCredentialsResult {
  if (!header) return { kind: "missing" };
  const match = /^Basic[ ]+(\S+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? { kind: "malformed" } : { kind: "missing" };
  const encoded = match[1];
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return { kind: "malformed" };
  const raw = Buffer.from(encoded, "base64");
  const colon = raw.indexOf(0x3a);
  if (colon < 0) return { kind: "malformed" };
  const key = percentDecode(raw.subarray(0, colon));
  const secret = percentDecode(raw.subarray(colon + 1));
  if (key === null || secret === null || key === "") return { kind: "malformed" };
  return { kind: "ok", key, secret };
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** Returns null for a stray `%` or bytes that are not UTF-8, which the caller reports as malformed. */
function percentDecode(bytes: Uint8Array): string | null {
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x2b) {
      out[length++] = 0x20;
    } else if (byte === 0x25) {
      const high = hexValue(bytes[i + 1] ?? -1);
      const low = hexValue(bytes[i + 2] ?? -1);
      if (high < 0 || low < 0) return null;
      out[length++] = high * 16 + low;
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  try {
    return utf8.decode(out.subarray(0, length));
  } catch {
    return null;
  }
}

/** The encoding a well-behaved client applies (RFC 3986 unreserved kept, everything else %XX). */
export function encodeCredentialPart(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function basicAuthorizationHeader(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeCredentialPart(key)}:${encodeCredentialPart(secret)}`).toString("base64")}`;
}
