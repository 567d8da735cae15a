import { SeededRandom } from "./random";

/**
 * Drift for demos (SandboxOptions.driftSeconds): every so often a few random edits, as if someone
 * were at work in the EMS web app, so change history has something to show. The sequence of batch
 * sizes and seeds is drawn from one seed: a demo replays the same way from the start or a reset.
 */
const DRIFT_STREAM = 12;

export class Drift {
  private random: SeededRandom;
  private readonly timer: ReturnType<typeof setInterval>;

  /** `edit(count, seed)` applies `count` (1 to 3) random edits chosen from `seed`. */
  constructor(
    seconds: number,
    private readonly seed: number,
    private readonly edit: (count: number, seed: number) => void,
  ) {
    this.random = new SeededRandom(seed, DRIFT_STREAM);
    this.timer = setInterval(() => this.tick(), seconds * 1000);
    // A demo convenience must never keep a process (a test run, a script) alive.
    this.timer.unref();
  }

  tick(): void {
    const count = this.random.int(1, 3);
    this.edit(count, this.random.int(0, 0x7fffffff));
  }

  /** Starts the sequence over (the admin reset). */
  restart(): void {
    this.random = new SeededRandom(this.seed, DRIFT_STREAM);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
