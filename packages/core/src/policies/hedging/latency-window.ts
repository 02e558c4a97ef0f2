/**
 * The last `size` durations of a tool's successful attempts, for a percentile on demand. A
 * ring buffer: O(1) to record; a percentile sorts a copy, so it is recomputed only every
 * `size / 8` records.
 *
 * @internal
 */
export class LatencyWindow {
  private readonly samples: Float64Array;
  private count = 0;
  private next = 0;
  private cached = Number.NaN;
  private recordsSinceCache = Number.POSITIVE_INFINITY;

  constructor(
    private readonly size = 256,
    private readonly quantile = 0.95,
  ) {
    this.samples = new Float64Array(size);
  }

  /** Durations recorded so far (at most `size`). */
  get length(): number {
    return this.count;
  }

  record(durationMs: number): void {
    this.samples[this.next] = durationMs;
    this.next = (this.next + 1) % this.size;
    if (this.count < this.size) this.count++;
    this.recordsSinceCache++;
  }

  /** The quantile of the recorded durations (NaN when none). */
  percentile(): number {
    if (this.count === 0) return Number.NaN;
    if (this.recordsSinceCache >= Math.max(1, this.size >> 3)) {
      const sorted = this.samples.slice(0, this.count).sort();
      this.cached = sorted[
        Math.min(this.count - 1, Math.floor(this.quantile * this.count))
      ] as number;
      this.recordsSinceCache = 0;
    }
    return this.cached;
  }
}
