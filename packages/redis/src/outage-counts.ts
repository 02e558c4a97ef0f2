import type { BreakerHandle } from '@toolshield/core/internal';
import { windowOf, type Tally } from './breaker-window-buckets.js';

/**
 * The counts a breaker store made while Redis was away, by breaker and bucket index, kept for
 * the span of each breaker's window so they can join the shared window when Redis is back
 * (ADR 0022). Buckets that fall out of the window are forgotten.
 *
 * @internal
 */
export class OutageCounts {
  private readonly kept = new Map<string, Map<number, Tally>>();

  /** Keeps `counts`, made at `now`, for `breaker`, and forgets its buckets older than its window. */
  keep(breaker: BreakerHandle, counts: Tally, now: number): void {
    const window = windowOf(breaker, now);
    const buckets = this.add(breaker.key, window.at(-1) as number, counts);
    for (const index of buckets.keys()) if (index < (window[0] as number)) buckets.delete(index);
  }

  /** Takes what is kept for `key` (nothing is kept for it afterwards). */
  take(key: string): ReadonlyMap<number, Tally> | undefined {
    const buckets = this.kept.get(key);
    this.kept.delete(key);
    return buckets;
  }

  /** Keeps again what {@link take} gave, when it could not be sent after all. */
  putBack(key: string, buckets: ReadonlyMap<number, Tally>): void {
    for (const [index, counts] of buckets) this.add(key, index, counts);
  }

  /** The keys something is kept for. */
  keys(): string[] {
    return [...this.kept.keys()];
  }

  /** Forgets what is kept for `key`. */
  forget(key: string): void {
    this.kept.delete(key);
  }

  private add(key: string, index: number, counts: Tally): Map<number, Tally> {
    let buckets = this.kept.get(key);
    if (buckets === undefined) {
      buckets = new Map();
      this.kept.set(key, buckets);
    }
    const kept = buckets.get(index) ?? { successes: 0, failures: 0 };
    kept.successes += counts.successes;
    kept.failures += counts.failures;
    buckets.set(index, kept);
    return buckets;
  }
}

/** The counts kept for each bucket of `window` (zero where none were). @internal */
export function countsIn(kept: ReadonlyMap<number, Tally>, window: readonly number[]): Tally[] {
  return window.map((index) => kept.get(index) ?? { successes: 0, failures: 0 });
}
