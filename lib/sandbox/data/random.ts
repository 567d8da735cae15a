/**
 * A small seeded PRNG (mulberry32): the same seed always yields the same data, on every machine,
 * so tests and demos can rely on concrete records.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number, stream = 0) {
    // Mix the stream in so groups and events of one seed do not share a sequence.
    this.state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /**
   * Lower-case alphanumeric string, for API keys and slugs. Built from whole 32-bit draws in base 36
   * (not one draw per character): 100,000 groups need about a million of these.
   */
  token(length: number): string {
    let out = "";
    while (out.length < length)
      out += Math.floor(this.next() * 2_176_782_336)
        .toString(36)
        .padStart(6, "0");
    return out.slice(0, length);
  }
}
