import { z } from "zod";

/**
 * Faults on demand: "the next N calls" answer a chosen status, arrive late, or carry broken JSON.
 * Rules are consumed in the order they were injected; each call takes at most one rule.
 */
export const faultRuleSchema = z
  .object({
    count: z.number().int().min(1).max(100_000),
    status: z.union([z.literal(401), z.literal(403), z.literal(404), z.literal(422), z.literal(429), z.literal(500), z.literal(503)]).optional(),
    delayMs: z.number().int().min(0).max(120_000).optional(),
    malformedJson: z.boolean().optional(),
    /** Seconds sent in Retry-After with an injected 429 or 503. */
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    /** `api` is every API call, writes included; `write` only creates, updates and deletes (docs/ems-api.md §8). */
    paths: z.enum(["token", "api", "write", "all"]).default("all"),
    /** Let this many matching calls through first: a failure at the third write of five is `skip: 2`. */
    skip: z.number().int().min(0).max(100_000).optional(),
    /** For writes: make the write, then lose its answer (the status and/or delay apply to the answer). */
    afterWrite: z.boolean().optional(),
    /**
     * For a 422 on a write: its message quotes the first header value the write sent, as some
     * validating frameworks quote the value they refuse (a client must not show it back).
     */
    quoteSent: z.boolean().optional(),
    /**
     * Only calls made as this account (its consumer key): a test slowing one account's writes leaves
     * the other accounts of a shared sandbox (the e2e plans sandbox) as they are.
     */
    account: z.string().min(1).max(200).optional(),
  })
  .refine((rule) => rule.status !== undefined || rule.delayMs !== undefined || rule.malformedJson === true, {
    message: "A fault needs at least one of status, delayMs or malformedJson.",
  });
export type FaultRuleInput = z.input<typeof faultRuleSchema>;
export type FaultRule = z.output<typeof faultRuleSchema>;

export type CallKind = "token" | "api" | "write";

export class FaultQueue {
  private rules: (FaultRule & { remaining: number; toSkip: number })[] = [];

  add(rule: FaultRule): void {
    this.rules.push({ ...rule, remaining: rule.count, toSkip: rule.skip ?? 0 });
  }

  /**
   * Takes one use of the first rule that applies to this kind of call (by this account), if any; a rule still
   * skipping lets the call through (and counts it).
   */
  take(kind: CallKind, accountKey?: string): FaultRule | undefined {
    if (this.rules.length === 0) return undefined;
    const index = this.rules.findIndex(
      (rule) =>
        (rule.account === undefined || rule.account === accountKey) && (rule.paths === "all" || rule.paths === kind || (rule.paths === "api" && kind === "write")),
    );
    if (index < 0) return undefined;
    const rule = this.rules[index];
    if (rule.toSkip > 0) {
      rule.toSkip -= 1;
      return undefined;
    }
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.rules.splice(index, 1);
    return rule;
  }

  pending(): number {
    return this.rules.reduce((sum, rule) => sum + rule.remaining, 0);
  }

  clear(): void {
    this.rules = [];
  }
}

/** Cuts a JSON body so no parser accepts it, while it still looks like the start of the real answer. */
export function breakJson(body: string): string {
  const cut = Math.max(1, Math.floor(body.length / 2));
  return `${body.slice(0, cut)}<!-- truncated`;
}
