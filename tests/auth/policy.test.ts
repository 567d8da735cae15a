import { describe, expect, it } from "vitest";
import { newPasswordSchema } from "@/lib/auth/password-policy";
import { throttleMessage } from "@/lib/auth/throttle";

describe("new password rule", () => {
  it("refuses fewer than 12 characters", () => {
    const result = newPasswordSchema.safeParse("elevenchars");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("Use at least 12 characters.");
  });

  it("refuses a common password whatever its case", () => {
    const result = newPasswordSchema.safeParse("Password1234");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("This password is one of the most common ones. Choose another.");
  });

  it("accepts a long uncommon phrase", () => {
    expect(newPasswordSchema.safeParse("violet kettle on a tuesday").success).toBe(true);
  });
});

describe("throttle message", () => {
  it("says seconds up to 90, then rounds up to whole minutes", () => {
    expect(throttleMessage(899)).toBe("Too many failed sign-in attempts. Try again in 15 minutes.");
    expect(throttleMessage(91)).toBe("Too many failed sign-in attempts. Try again in 2 minutes.");
    expect(throttleMessage(61)).toBe("Too many failed sign-in attempts. Try again in 61 seconds.");
    expect(throttleMessage(1)).toBe("Too many failed sign-in attempts. Try again in 1 second.");
  });
});
