/** Buckets a window is cut into: it slides by a tenth of its length. */
const BUCKETS = 10;

interface Bucket {
  /** Which stretch of `widthMs` the counts are of. */
  epoch: number;
  calls: number;
  retries: number;
}

/**
 * Calls and retries counted over a sliding window of `windowMs`, in ten buckets: a bucket
 * older than the window is reset when its slot is reused, so counting costs O(1) and reading
 * O(10), with no timer.
 *
 * @publicApi
 */
export class SlidingCallCounts {
  private readonly widthMs: number;
  private readonly buckets: readonly Bucket[] = Array.from({ length: BUCKETS }, () => ({
    epoch: Number.NEGATIVE_INFINITY,
    calls: 0,
    retries: 0,
  }));

  constructor(windowMs: number) {
    this.widthMs = Math.max(windowMs / BUCKETS, 1);
  }

  /** Counts one call (a first attempt) at `now`. */
  addCall(now: number): void {
    this.bucketAt(now).calls += 1;
  }

  /** Counts one retry at `now`. */
  addRetry(now: number): void {
    this.bucketAt(now).retries += 1;
  }

  /** The calls and retries of the window ending at `now`. */
  totals(now: number): { readonly calls: number; readonly retries: number } {
    const oldest = this.epochOf(now) - BUCKETS + 1;
    let calls = 0;
    let retries = 0;
    for (const bucket of this.buckets) {
      if (bucket.epoch < oldest) continue;
      calls += bucket.calls;
      retries += bucket.retries;
    }
    return { calls, retries };
  }

  private epochOf(now: number): number {
    return Math.floor(now / this.widthMs);
  }

  /** `now`'s bucket, emptied first when its slot last held an older one. */
  private bucketAt(now: number): Bucket {
    const epoch = this.epochOf(now);
    const bucket = this.buckets[((epoch % BUCKETS) + BUCKETS) % BUCKETS] as Bucket;
    if (bucket.epoch !== epoch) {
      bucket.epoch = epoch;
      bucket.calls = 0;
      bucket.retries = 0;
    }
    return bucket;
  }
}
