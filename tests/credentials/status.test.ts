import { describe, expect, it } from "vitest";
import { credentialStatus } from "@/lib/credentials/status";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 12, minute));
const none = { lastVerifiedAt: null, lastErrorAt: null, lastError: null, lastErrorCode: null };

describe("the status of saved credentials", () => {
  it("is 'Not checked yet' before any check, and 'Connected' after a good one", () => {
    expect(credentialStatus(none)).toEqual({ kind: "unchecked", label: "Not checked yet", checkedAt: null, message: null });
    expect(credentialStatus({ ...none, lastVerifiedAt: at(5) })).toEqual({ kind: "connected", label: "Connected", checkedAt: at(5), message: null });
  });

  it("says Rejected or Unreachable by the kind of the last failure, with its message and time", () => {
    const failed = (code: string) => credentialStatus({ lastVerifiedAt: at(1), lastErrorAt: at(2), lastError: "what went wrong", lastErrorCode: code });
    expect(failed("ems_credentials_rejected")).toEqual({ kind: "rejected", label: "Rejected", checkedAt: at(2), message: "what went wrong" });
    for (const code of ["ems_timeout", "ems_unavailable", "ems_blocked_destination", "ems_redirect"]) expect(failed(code).label, code).toBe("Unreachable");
    for (const code of ["ems_rate_limited", "ems_invalid_response", "unexpected"]) expect(failed(code).label, code).toBe("Failing");
  });

  it("goes by the newer of the two: a good check after a failure is Connected again", () => {
    expect(credentialStatus({ lastVerifiedAt: at(3), lastErrorAt: at(2), lastError: "old", lastErrorCode: "ems_timeout" }).kind).toBe("connected");
    expect(credentialStatus({ lastVerifiedAt: null, lastErrorAt: at(2), lastError: "x", lastErrorCode: null }).kind).toBe("failing");
  });
});
