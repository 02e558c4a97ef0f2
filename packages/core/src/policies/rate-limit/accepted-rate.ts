/**
 * The rate an upstream accepted lately: its successes over the last `windowMs`. At a refusal,
 * over a second, it is what the upstream admitted in its last window, the best guess of its
 * limit.
 *
 * @internal
 */
export class AcceptedRate {
  private readonly times: number[] = [];

  constructor(private readonly windowMs: number) {}

  /** A call succeeded at clock time `now`. */
  record(now: number): void {
    this.times.push(now);
    this.forgetBefore(now - this.windowMs);
  }

  /** Successes per second over the window, or 0 when there is too little to tell. */
  at(now: number): number {
    this.forgetBefore(now - this.windowMs);
    return this.times.length < 2 ? 0 : (this.times.length * 1000) / this.windowMs;
  }

  /** Successes after clock time `since` (within the window). */
  countSince(since: number): number {
    let count = 0;
    for (
      let index = this.times.length - 1;
      index >= 0 && (this.times[index] as number) > since;
      index--
    )
      count++;
    return count;
  }

  private forgetBefore(cutoff: number): void {
    while (this.times.length > 0 && (this.times[0] as number) <= cutoff) this.times.shift();
  }
}
