import { SafeError } from "@/lib/errors";

/**
 * Admission of heavy work (issue 34 §2): reading a selection of thousands of records, drafting a
 * bulk plan, an export. Each holds megabytes while it runs (the pages it reads, the operations it
 * makes), so what bounds an instance's memory is how many run at once, not how large one is. Work
 * beyond a kind's limits is refused at once with when to try again (BusyError: 429 for routes,
 * the form's message for actions), never queued: a queue of them is what piled up before.
 *
 * - Per person: one of a kind at a time (a second tab, a double click, a script's burst).
 * - Per instance: a few of a kind at a time, whoever asks.
 * Counted in this process only: each instance has its own heap to protect. (Exports also keep
 * their per-person limit across instances: lib/listing/export-slots.ts.)
 */

export const HEAVY_WORK = {
  selection: { perPerson: 1, perInstance: 3, words: "reading a large selection" },
  drafting: { perPerson: 1, perInstance: 2, words: "drafting a large plan" },
  // A person's exports are counted across instances too (EXPORT_MAX_CONCURRENT): that limit holds.
  export: { perPerson: Number.POSITIVE_INFINITY, perInstance: 3, words: "an export" },
} as const satisfies Record<string, { perPerson: number; perInstance: number; words: string }>;
export type HeavyWork = keyof typeof HEAVY_WORK;

/** How long one of a kind usually takes before one has finished here (seconds). */
const FIRST_GUESS_SECONDS = 10;

export class BusyError extends SafeError {
  constructor(
    /** What it is busy with: a kind of heavy work, or a person's allowance for costly reads. */
    readonly kind: HeavyWork | "reads",
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message, "busy");
  }
}

function busyWith(kind: HeavyWork, retryAfterSeconds: number, who: "you" | "everyone"): BusyError {
  return new BusyError(
    kind,
    retryAfterSeconds,
    who === "you"
      ? `You are already ${HEAVY_WORK[kind].words} elsewhere: try again in ${retryAfterSeconds} s, once it is done.`
      : `The portal is busy with other people's work (${HEAVY_WORK[kind].words}): try again in ${retryAfterSeconds} s.`,
  );
}

interface Running {
  person: string;
  startedAt: number;
}

const running = new Map<HeavyWork, Set<Running>>();
/** Seconds one of a kind took, averaged (the estimate of "try again in N s"). */
const typicalSeconds = new Map<HeavyWork, number>();

function retryAfter(kind: HeavyWork, among: Iterable<Running>): number {
  const typical = typicalSeconds.get(kind) ?? FIRST_GUESS_SECONDS;
  let soonest = Infinity;
  for (const entry of among) soonest = Math.min(soonest, entry.startedAt + typical * 1000 - Date.now());
  return Math.max(1, Math.ceil((Number.isFinite(soonest) ? soonest : typical * 1000) / 1000));
}

export interface Admission {
  /** Ends it (idempotent): call when the work is over, streamed output included. */
  release(): void;
}

/** Admits one piece of `kind` work for `person`, or throws BusyError. */
export function admit(kind: HeavyWork, person: string): Admission {
  const limits = HEAVY_WORK[kind];
  const now = running.get(kind) ?? new Set<Running>();
  running.set(kind, now);
  const own = [...now].filter((entry) => entry.person === person);
  if (own.length >= limits.perPerson) throw busyWith(kind, retryAfter(kind, own), "you");
  if (now.size >= limits.perInstance) throw busyWith(kind, retryAfter(kind, now), "everyone");
  const entry: Running = { person, startedAt: Date.now() };
  now.add(entry);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      now.delete(entry);
      const took = (Date.now() - entry.startedAt) / 1000;
      const before = typicalSeconds.get(kind);
      typicalSeconds.set(kind, before === undefined ? took : 0.7 * before + 0.3 * took);
    },
  };
}

/** Runs `work` once admitted (BusyError otherwise), and releases its place when it settles. */
export async function admitted<T>(kind: HeavyWork, person: string, work: () => Promise<T>): Promise<T> {
  const admission = admit(kind, person);
  try {
    return await work();
  } finally {
    admission.release();
  }
}

/**
 * Credits a person's costly reads may spend in ten minutes on this instance: a whole selection for
 * /plans/new (10 a page of 200), a palette search (20). A quarter of the contract's window (2,000
 * credits per 10 minutes, docs/ems-api.md §5), so one person, or links that make their browser ask
 * (issue 35), can never empty the window everyone on the key shares. Ordinary page views are not
 * counted here: they are one call each, shared between people (lib/ems/answer-cache.ts).
 */
export const READ_CREDITS_PER_PERSON = 500;
const READ_WINDOW_MS = 10 * 60_000;
const readSpend = new Map<string, { at: number; credits: number }[]>();

/** Charges `credits` of costly reads to `person`, or throws BusyError when their ten minutes' allowance would go past READ_CREDITS_PER_PERSON. */
export function chargeReadCredits(person: string, credits: number, now = Date.now()): void {
  const recent = (readSpend.get(person) ?? []).filter((entry) => entry.at > now - READ_WINDOW_MS);
  const spent = recent.reduce((sum, entry) => sum + entry.credits, 0);
  if (spent + credits > READ_CREDITS_PER_PERSON) {
    readSpend.set(person, recent);
    const freesAt = (recent[0]?.at ?? now) + READ_WINDOW_MS;
    const seconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
    throw new BusyError(
      "reads",
      seconds,
      `You have read ${spent.toLocaleString("en-US")} credits' worth of large selections and searches in ten minutes, the most one person may: try again in ${seconds} s.`,
    );
  }
  recent.push({ at: now, credits });
  readSpend.set(person, recent);
  // People who have not read for ten minutes are forgotten, so the map stays as small as the people reading.
  if (readSpend.size > 1_000) for (const [who, entries] of readSpend) if (entries.every((entry) => entry.at <= now - READ_WINDOW_MS)) readSpend.delete(who);
}
