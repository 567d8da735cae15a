import { describe, expect, it } from "vitest";
import { cleanApiMessage } from "@/lib/ems/responses";
import { MASK, withoutHeaderValues } from "@/lib/plans/redact";

// An EMS's 422 may quote what it was sent; the step's message goes to the plan page, the audit log
// and the team's alerts (lib/plans/apply.ts), so the step's header values are masked in it.
describe("withoutHeaderValues", () => {
  it("masks every header value of the step's changes and before-state, the longest first", () => {
    const message = "The EMS refused the change: headers: “sk_live_abcdef” is not allowed; old value sk_live_abc was rotated";
    const changes = { headers: [{ key: "Authorization", value: "sk_live_abcdef" }] };
    const before = { headers: [{ key: "Authorization", value: "sk_live_abc" }] };
    const masked = withoutHeaderValues(message, changes, before);
    expect(masked).toBe(`The EMS refused the change: headers: “${MASK}” is not allowed; old value ${MASK} was rotated`);
    expect(masked).not.toContain("sk_live");
  });

  it("leaves a message alone when the step has no headers, and does not garble it for a one-character value", () => {
    expect(withoutHeaderValues("url: must be https", { url: "x" } as never, null)).toBe("url: must be https");
    expect(withoutHeaderValues("name: 1 to 255 characters", { headers: [{ key: "X-Flag", value: "1" }] })).toBe("name: 1 to 255 characters");
  });
});

// Issue 35: the refusal is cleaned before it is shown (white space collapsed, invisible characters
// removed, cut to 200 characters), and a cleaned or cut quote no longer equals the value.
describe("withoutHeaderValues, on a refusal cleaned for showing", () => {
  const refusal = (quoted: string) => cleanApiMessage(`headers: Header value “${quoted}” is not allowed.`)!;

  it("masks a value whose white space the cleaning collapsed (two spaces shown as one)", () => {
    const value = "Bearer  tok_live_7f3a9c21d0e4";
    const masked = withoutHeaderValues(refusal(value), { headers: [{ key: "Authorization", value }] });
    expect(masked).toBe(`headers: Header value “${MASK}” is not allowed.`);
    expect(masked).not.toContain("tok_live");
  });

  it("masks a value with a line break or an invisible character in it", () => {
    for (const value of ["tok_live_\n9c21d0e4aa", "tok_live_\u200b9c21d0e4aa"]) {
      expect(withoutHeaderValues(refusal(value), { headers: [{ key: "X-Api-Key", value }] })).not.toMatch(/9c21d0e4/);
    }
  });

  it("masks what is left of a long value cut short, and any long piece of a value quoted in part", () => {
    const value = `tok_live_${"a1b2c3d4e5".repeat(25)}`;
    const shown = refusal(value);
    expect(shown.endsWith("…")).toBe(true);
    const masked = withoutHeaderValues(shown, { headers: [{ key: "X-Api-Key", value }] });
    expect(masked).not.toMatch(/a1b2c3d4/);
    expect(masked).not.toContain("tok_live");
    const piece = value.slice(40, 60);
    expect(withoutHeaderValues(`value ${piece} refused`, { headers: [{ key: "X-Api-Key", value }] })).toBe(`value ${MASK} refused`);
  });

  it("keeps the words around it: short pieces that merely look alike are not masked", () => {
    const value = "s3cr3t-value-Kx9";
    expect(withoutHeaderValues("name: Name cannot be blank.", { headers: [{ key: "X-Api-Key", value }] })).toBe("name: Name cannot be blank.");
  });
});
