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
    readonly kind: HeavyWork,
    readonly retryAfterSeconds: number,
    who: "you" | "everyone",
  ) {
    super(
      who === "you"
        ? `You are already ${HEAVY_WORK[kind].words} elsewhere: try again in ${retryAfterSeconds} s, once it is done.`
        : `The portal is busy with other people's work (${HEAVY_WORK[kind].words}): try again in ${retryAfterSeconds} s.`,
      "busy",
    );
  }
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
  if (own.length >= limits.perPerson) throw new BusyError(kind, retryAfter(kind, own), "you");
  if (now.size >= limits.perInstance) throw new BusyError(kind, retryAfter(kind, now), "everyone");
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
