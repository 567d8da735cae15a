import { describe, expect, it } from "vitest";
import { BusyError, chargeReadCredits, READ_CREDITS_PER_PERSON } from "@/lib/admission";

// A person's costly reads (whole selections, palette searches) spend at most a quarter of the
// window in ten minutes (lib/admission.ts): the refusal says when to try again; others are not held up.
describe("chargeReadCredits", () => {
  it("takes a person's reads up to the allowance, refuses the next with when to retry, and frees them as the ten minutes pass", () => {
    const start = 1_000_000;
    const person = "reader-1";
    for (let n = 0; n < READ_CREDITS_PER_PERSON / 20; n++) chargeReadCredits(person, 20, start + n * 1_000);
    let refusal: unknown;
    try {
      chargeReadCredits(person, 20, start + 60_000);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(BusyError);
    expect((refusal as BusyError).retryAfterSeconds).toBe(540);
    expect((refusal as BusyError).message).toMatch(/^You have read 500 credits' worth .* try again in 540 s\.$/);
    // Someone else has an allowance of their own.
    expect(() => chargeReadCredits("reader-2", 20, start + 60_000)).not.toThrow();
    // Ten minutes after the first read, its credits are free again.
    expect(() => chargeReadCredits(person, 20, start + 600_001)).not.toThrow();
  });
});
