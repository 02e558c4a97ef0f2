import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/** The least successes between two precise refusals that measure the refill rate. */
const MIN_MEASURED = 5;
/** Two measurements this close (a share) are one steady refill: a token bucket's are exact. */
const AGREEMENT = 0.001;
/**
 * The clock's own error in a measurement, in ms (a refusal is timed when its answer arrives,
 * late by the event loop's delay on a loaded machine): allowed on top of `AGREEMENT`.
 */
const TIMING_ERROR_MS = 10;
/** A steady refill measured this much (a share) off the last one has moved. */
const MOVED = 0.05;

/**
 * The refill rate of an upstream that says a precise `Retry-After` (`retry-after-ms`) on its
 * refusals. A token bucket is empty when it refuses, and its next token comes when the wait
 * ends; each call it admits moves that time on by exactly one token's time. So two refusals
 * with `k` successes between measure its rate exactly: `k` over how far the next token's time
 * moved (a saturated sliding log or fixed window repeats itself and measures its limit too).
 * Two measurements in a row that agree (within 0.1 %, and the clock's error of 10 ms) tell a
 * steady refill; one then far off it tells that the upstream's limit moved, whatever the
 * successes over the last second suggest.
 *
 * @internal
 */
export class PreciseRefill {
  /** When the last precise refusal's wait ended (the next token), or undefined. */
  private nextTokenAt?: number;
  /** Successes since that refusal. */
  private successes = 0;
  /** The last refill rate measured, calls a second. */
  private lastRate?: number;
  /** The last two measurements agreed: the refill was steady. */
  private steady = false;

  /** A call succeeded. */
  succeeded(): void {
    this.successes++;
  }

  /**
   * The upstream refused a call at clock time `now`, saying `signals`: true when this refusal
   * measured a steady refill that moved (by more than `MOVED`).
   */
  refused(signals: UpstreamRateSignals, now: number): boolean {
    const { retryAfterMs, retryAfterInWholeSeconds } = signals;
    const previous = this.nextTokenAt;
    const successes = this.successes;
    this.successes = 0;
    if (retryAfterMs === undefined || retryAfterInWholeSeconds === true) {
      this.nextTokenAt = undefined;
      return false;
    }
    this.nextTokenAt = now + retryAfterMs;
    const movedMs = previous === undefined ? 0 : this.nextTokenAt - previous;
    if (successes < MIN_MEASURED || movedMs <= 0) return false;
    const rate = (successes * 1000) / movedMs;
    const last = this.lastRate;
    const off = last === undefined ? Number.POSITIVE_INFINITY : Math.abs(rate - last) / last;
    const moved = this.steady && off > MOVED;
    this.steady = off <= AGREEMENT + TIMING_ERROR_MS / movedMs;
    this.lastRate = rate;
    return moved;
  }
}
