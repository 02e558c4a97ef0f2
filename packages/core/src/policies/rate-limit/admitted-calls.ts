/**
 * What the upstream admitted lately: the times of the successes over the last `spanMs`, in
 * calls a second. At a refusal, over a second, the best guess of its limit: a full log or
 * window holds that many, a bucket refilled that many (and let its burst out).
 *
 * @internal
 */
export class AdmittedCalls {
  private readonly times: number[] = [];

  constructor(private readonly spanMs: number) {}

  /** A call was admitted at clock time `at`. */
  record(at: number): void {
    this.times.push(at);
    this.forgetBefore(at - this.spanMs);
  }

  /** Calls a second admitted over the span until `now`; undefined when under two tell. */
  rate(now: number): number | undefined {
    this.forgetBefore(now - this.spanMs);
    return this.times.length < 2 ? undefined : (this.times.length * 1000) / this.spanMs;
  }

  private forgetBefore(cutoff: number): void {
    while (this.times.length > 0 && (this.times[0] as number) <= cutoff) this.times.shift();
  }
}
