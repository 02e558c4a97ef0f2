import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/**
 * The pauses an adaptive controller put every caller in since its last slow-down, as
 * `[from, until]` clock times: nothing was sent meanwhile, so that time does not count toward
 * what the upstream admitted. Only the last `keepMs` are kept.
 *
 * @internal
 */
export class CallerPauses {
  private readonly spans: [number, number][] = [];

  constructor(private readonly keepMs: number) {}

  /** A pause from `now` for `ms`; one overlapping the last is counted from its end. */
  add(now: number, ms: number): void {
    while ((this.spans[0]?.[1] ?? now) < now - this.keepMs) this.spans.shift();
    const from = Math.max(now, this.spans.at(-1)?.[1] ?? now);
    if (now + ms > from) this.spans.push([from, now + ms]);
  }

  /** How long the callers were paused until `now`. */
  totalUntil(now: number): number {
    return this.spans.reduce(
      (total, [from, until]) => total + Math.max(0, Math.min(until, now) - from),
      0,
    );
  }

  clear(): void {
    this.spans.length = 0;
  }
}

/**
 * How long every caller pauses for a refusal's `Retry-After`. One in whole seconds is the
 * upstream's wait rounded up to the header's unit (a token bucket ready again in 20 ms says
 * 1 s): a bound, not the wait. Pausing every caller for all of it idles them for most of a
 * second at each refusal; the pause is a second less, the least the upstream can have meant,
 * and the slow-down and the pauses of further refusals pace what follows. The refused call
 * itself still waits its whole `Retry-After` before a retry.
 *
 * @internal
 */
export function pauseForRetryAfter({
  retryAfterMs = 0,
  retryAfterInWholeSeconds,
}: UpstreamRateSignals): number {
  return retryAfterInWholeSeconds === true ? Math.max(0, retryAfterMs - 1000) : retryAfterMs;
}
