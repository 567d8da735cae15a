/**
 * Request counters, so client tests can assert e.g. "exactly one token request", and writes made
 * (creates, updates and deletes the data took), so a plan's tests can assert "each change sent once".
 */
export type CallCounts = { tokenRequests: number; apiRequests: number; writes: number };
export type SandboxStats = CallCounts & { perAccount: Record<string, CallCounts> };

export class RequestCounters {
  private totals: CallCounts = { tokenRequests: 0, apiRequests: 0, writes: 0 };
  private perAccount = new Map<string, CallCounts>();

  record(kind: "token" | "api" | "write", accountKey: string | undefined): void {
    const field = kind === "token" ? "tokenRequests" : kind === "api" ? "apiRequests" : "writes";
    this.totals[field] += 1;
    if (accountKey === undefined) return;
    let counts = this.perAccount.get(accountKey);
    if (!counts) {
      counts = { tokenRequests: 0, apiRequests: 0, writes: 0 };
      this.perAccount.set(accountKey, counts);
    }
    counts[field] += 1;
  }

  snapshot(): SandboxStats {
    return { ...this.totals, perAccount: Object.fromEntries([...this.perAccount].map(([key, counts]) => [key, { ...counts }])) };
  }

  reset(): void {
    this.totals = { tokenRequests: 0, apiRequests: 0, writes: 0 };
    this.perAccount.clear();
  }
}
