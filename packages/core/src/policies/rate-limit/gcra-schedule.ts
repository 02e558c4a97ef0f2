/**
 * The arithmetic of the generic cell rate algorithm (GCRA), the token bucket written as one
 * number: the theoretical arrival time `tat` of the next call at the configured rate. A call
 * may leave at `now` when `now >= tat - tolerance`, where the tolerance lets `burst` calls
 * leave back to back after a quiet spell; leaving moves `tat` one interval on. Over any
 * window of `w` ms no more than `burst + w * rate / 1000` calls leave (`burst + 1/2 + ...`
 * when timers fire late: see {@link takeLate}).
 *
 * Pure and clock-free: the caller passes the time. `pausedUntil` holds every call back until
 * then, whatever the bucket holds (an upstream's `Retry-After`).
 *
 * @internal
 */
export class GcraSchedule {
  private intervalMs: number;
  private toleranceMs: number;
  private tat = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    rate: number,
    private readonly burst: number,
  ) {
    this.intervalMs = 1000 / rate;
    this.toleranceMs = (burst - 1) * this.intervalMs;
  }

  /** Calls per second. */
  get rate(): number {
    return 1000 / this.intervalMs;
  }

  /** Ms between calls at the current rate. */
  get interval(): number {
    return this.intervalMs;
  }

  /** Until when every call is held back (an upstream's `Retry-After`). */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  /** The earliest time the next call may leave. */
  nextAt(now: number): number {
    return Math.max(now, this.tat - this.toleranceMs, this.pausedUntil);
  }

  /** Lets one call leave at `at` (which must be `>= nextAt(at)`). */
  take(at: number): void {
    this.tat = Math.max(at, this.tat) + this.intervalMs;
  }

  /**
   * Lets one call leave at `at` that was due at `dueAt`, held up by a timer that fired late:
   * the schedule moves on from its due time, so a timer's ordinary lateness (a millisecond or
   * two, at every call) does not slow the rate. Up to half an interval of lateness is made up,
   * no more: a longer stall is lost rather than made up with calls back to back.
   */
  takeLate(at: number, dueAt: number): void {
    this.take(Math.max(Math.min(at, dueAt), at - this.intervalMs / 2));
  }

  /**
   * Changes the rate from `now` on. Calls already let out keep their spacing; the next one
   * is spaced at the new interval from the last.
   */
  setRate(rate: number, now: number): void {
    const last = this.tat - this.intervalMs;
    this.intervalMs = 1000 / rate;
    this.toleranceMs = (this.burst - 1) * this.intervalMs;
    if (Number.isFinite(this.tat)) this.tat = Math.max(now, last + this.intervalMs);
  }

  /** Holds every call back until `until` (never shortens an earlier pause). */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}
