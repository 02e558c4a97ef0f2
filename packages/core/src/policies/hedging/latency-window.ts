/**
 * The last `size` durations of a tool's first attempts, for a percentile on demand. A ring
 * buffer: O(1) to record; a percentile sorts a copy, so it is recomputed only every
 * `size / 8` records.
 *
 * A first attempt cut short because its hedge answered first is recorded as lasting at least
 * the call's duration (`atLeast`): a censored sample. Taken as exact, such samples would pull
 * the percentile down (every hedge shortens a slow call), which hedges more calls, which
 * pulls it further down; the percentile therefore is the Kaplan–Meier estimate whenever the
 * window holds censored samples, and the plain sample quantile otherwise (the same value
 * when nothing is censored).
 *
 * @internal
 */
export class LatencyWindow {
  private readonly samples: Float64Array;
  /** 1 where the sample is a lower bound. */
  private readonly censored: Uint8Array;
  private censoredCount = 0;
  private count = 0;
  private next = 0;
  private cached = Number.NaN;
  private recordsSinceCache = Number.POSITIVE_INFINITY;

  constructor(
    private readonly size = 256,
    private readonly quantile = 0.95,
  ) {
    this.samples = new Float64Array(size);
    this.censored = new Uint8Array(size);
  }

  /** Durations recorded so far (at most `size`). */
  get length(): number {
    return this.count;
  }

  /** Records a duration; `atLeast`: the attempt was still running then (it lasted longer). */
  record(durationMs: number, atLeast = false): void {
    const at = this.next;
    if (this.count === this.size) this.censoredCount -= this.censored[at] as number;
    this.samples[at] = durationMs;
    this.censored[at] = atLeast ? 1 : 0;
    if (atLeast) this.censoredCount++;
    this.next = (at + 1) % this.size;
    if (this.count < this.size) this.count++;
    this.recordsSinceCache++;
  }

  /** The quantile of the recorded durations (NaN when none). */
  percentile(): number {
    if (this.count === 0) return Number.NaN;
    if (this.recordsSinceCache >= Math.max(1, this.size >> 3)) {
      this.cached = this.censoredCount === 0 ? this.sampleQuantile() : this.kaplanMeierQuantile();
      this.recordsSinceCache = 0;
    }
    return this.cached;
  }

  private sampleQuantile(): number {
    const sorted = this.samples.slice(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.floor(this.quantile * this.count))] as number;
  }

  /**
   * The smallest exact duration at which the estimated share of attempts still running falls
   * below `1 - quantile` (a censored sample leaves the attempts at risk without ending one);
   * the longest duration seen when the estimate never gets there.
   */
  private kaplanMeierQuantile(): number {
    const { samples, censored } = this;
    const order = Array.from({ length: this.count }, (_, i) => i).sort(
      (a, b) =>
        (samples[a] as number) - (samples[b] as number) ||
        (censored[a] as number) - (censored[b] as number),
    );
    let atRisk = this.count;
    let running = 1;
    for (const i of order) {
      if (censored[i] === 0) {
        running *= 1 - 1 / atRisk;
        if (running < 1 - this.quantile) return samples[i] as number;
      }
      atRisk--;
    }
    return samples[order[order.length - 1] as number] as number;
  }
}
