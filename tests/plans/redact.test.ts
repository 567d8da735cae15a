import { describe, expect, it } from "vitest";
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
