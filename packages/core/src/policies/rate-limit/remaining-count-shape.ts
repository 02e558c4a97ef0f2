/**
 * How an upstream that sends `X-RateLimit-Limit`/`-Remaining`/`-Reset` (and no window) counts,
 * told from the sequence of its remaining counts: a fixed window refills all at once at its
 * reset (the count jumps up by most of the limit, once a window, a second or more apart);
 * a token bucket refills continuously (the count creeps up by a few, many times a second).
 *
 * @internal
 */
export type RemainingCountShape = 'unknown' | 'bucket' | 'window';

/** Refills closer together than this are a bucket's; a window's are a second or more apart. */
const MIN_WINDOW_GAP_MS = 900;
/** Refills seen, each at least the gap apart and none closer, before the shape is a window. */
const WINDOW_REFILLS = 2;
/** How far back the remaining counts count toward their trend. */
const TREND_WINDOW_MS = 1_000;
/** Small rises within the gap seen before the shape is a bucket (a reordered answer makes one). */
const BUCKET_RISES = 3;

/**
 * Watches the remaining counts an upstream reports and infers its {@link RemainingCountShape},
 * and for a window its length (the shortest time between two refills).
 *
 * @internal
 */
export class RemainingCountWatch {
  private last?: number;
  private lastRefillAt?: number;
  private refills = 0;
  private closeRises = 0;
  private lastRiseAt = Number.NEGATIVE_INFINITY;
  private shortestGapMs = Number.POSITIVE_INFINITY;
  /** The counts of the last second, oldest first. */
  private readonly recent: { readonly at: number; readonly remaining: number }[] = [];

  /** The shape seen so far. */
  get shape(): RemainingCountShape {
    if (this.closeRises >= BUCKET_RISES) return 'bucket';
    return this.refills >= WINDOW_REFILLS ? 'window' : 'unknown';
  }

  /**
   * The window's length in ms once it is a window: the shortest time seen between refills, to
   * the nearest whole second (a refill is seen at the first answer after it, a call late).
   */
  get windowMs(): number | undefined {
    if (this.shape !== 'window') return undefined;
    return Math.max(1, Math.round(this.shortestGapMs / 1000)) * 1000;
  }

  /**
   * How fast the remaining count moved over the last second, in calls a second (negative:
   * falling), or undefined when the counts seen span less than half a second. A bucket's
   * refill rate is the rate of successes plus this.
   */
  trendPerSecond(now: number): number | undefined {
    this.forgetBefore(now - TREND_WINDOW_MS);
    const first = this.recent[0];
    const last = this.recent.at(-1);
    if (first === undefined || last === undefined) return undefined;
    const spanMs = last.at - first.at;
    return spanMs < TREND_WINDOW_MS / 2
      ? undefined
      : ((last.remaining - first.remaining) * 1000) / spanMs;
  }

  /** The upstream reported `remaining` of `limit` at clock time `now`. */
  observe(remaining: number, limit: number | undefined, now: number): void {
    this.recent.push({ at: now, remaining });
    this.forgetBefore(now - TREND_WINDOW_MS);
    const rise = this.last === undefined ? 0 : remaining - this.last;
    this.last = remaining;
    if (rise <= 0) return;
    const refill = rise >= Math.max(2, (limit ?? 0) / 2);
    if (!refill) {
      if (now - this.lastRiseAt < MIN_WINDOW_GAP_MS) this.closeRises++;
      this.lastRiseAt = now;
      return;
    }
    if (this.lastRefillAt !== undefined) {
      const gap = now - this.lastRefillAt;
      if (gap < MIN_WINDOW_GAP_MS) this.closeRises = BUCKET_RISES;
      else {
        this.refills++;
        this.shortestGapMs = Math.min(this.shortestGapMs, gap);
      }
    }
    this.lastRefillAt = now;
  }

  private forgetBefore(cutoff: number): void {
    while (this.recent.length > 0 && (this.recent[0] as { at: number }).at < cutoff)
      this.recent.shift();
  }
}
