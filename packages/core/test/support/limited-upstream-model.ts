/**
 * How an upstream counts its limit: a GCRA token bucket with `burst`, a fixed one-second
 * window, or a sliding log of the last second's accepted requests.
 *
 * @internal
 */
export type UpstreamCounting = 'token-bucket' | 'fixed-window' | 'sliding-log';

/**
 * What an upstream tells its clients:
 * - `retry-after-ms`: a refusal's `Retry-After` with the precise `retry-after-ms` (OpenAI, Azure);
 * - `retry-after-seconds`: a refusal's whole-second `Retry-After` only (the wait rounded up);
 * - `none`: a bare 429;
 * - `ietf`: `RateLimit-Policy` (`q`, `w`) and `RateLimit` (`r`, `t`) on every response, and a
 *   whole-second `Retry-After` on a refusal;
 * - `x-ratelimit`: `X-RateLimit-Limit` (the bucket's size or the window's quota),
 *   `-Remaining` and `-Reset` (whole seconds until the bucket is full or the window resets) on
 *   every response, and a whole-second `Retry-After` on a refusal.
 *
 * @internal
 */
export type UpstreamHeaderStyle =
  'retry-after-ms' | 'retry-after-seconds' | 'none' | 'ietf' | 'x-ratelimit';

/** An upstream's rules. @internal */
export interface UpstreamModelOptions {
  readonly counting: UpstreamCounting;
  readonly headers: UpstreamHeaderStyle;
  /** The token bucket's size (default 5). */
  readonly burst?: number;
}

/** The upstream's answer to one request. @internal */
export interface UpstreamAnswer {
  readonly ok: boolean;
  readonly headers: Readonly<Record<string, string>>;
  /** How long the refused request should wait (0 when accepted), whatever the headers say. */
  readonly waitMs: number;
}

/**
 * The decisions of a rate-limited upstream, in one place for the virtual-time simulation: it
 * answers a request arriving `elapsedMs` after its start under a limit of `limit` calls a
 * second (which may change between requests).
 *
 * @internal
 */
export class LimitedUpstreamModel {
  private tat = Number.NEGATIVE_INFINITY;
  private window = -1;
  private used = 0;
  private readonly log: number[] = [];
  private readonly burst: number;

  constructor(private readonly options: UpstreamModelOptions) {
    this.burst = options.burst ?? 5;
  }

  decide(elapsedMs: number, limit: number): UpstreamAnswer {
    const { waitMs, remaining, resetMs } = this.count(elapsedMs, limit);
    const quota = this.options.counting === 'token-bucket' ? this.burst : limit;
    return {
      ok: waitMs === 0,
      waitMs,
      headers: this.headers(limit, quota, waitMs, remaining, resetMs),
    };
  }

  /** Takes the request when the limit allows: the wait it must have (0: taken) and what is left. */
  private count(
    elapsed: number,
    limit: number,
  ): { waitMs: number; remaining: number; resetMs: number } {
    if (this.options.counting === 'fixed-window') {
      const current = Math.floor(elapsed / 1000);
      if (current !== this.window) [this.window, this.used] = [current, 0];
      const resetMs = 1000 * (current + 1) - elapsed;
      const ok = this.used < limit;
      if (ok) this.used++;
      return { waitMs: ok ? 0 : resetMs, remaining: limit - this.used, resetMs };
    }
    if (this.options.counting === 'sliding-log') {
      while (this.log.length > 0 && (this.log[0] as number) <= elapsed - 1000) this.log.shift();
      const ok = this.log.length < limit;
      if (ok) this.log.push(elapsed);
      const resetMs = this.log.length === 0 ? 0 : (this.log[0] as number) + 1000 - elapsed;
      return { waitMs: ok ? 0 : resetMs, remaining: limit - this.log.length, resetMs };
    }
    const interval = 1000 / limit;
    const tolerance = (this.burst - 1) * interval;
    const waitMs = Math.max(0, this.tat - tolerance - elapsed);
    if (waitMs === 0) this.tat = Math.max(elapsed, this.tat) + interval;
    const full = Math.max(0, this.tat - elapsed);
    const remaining = Math.max(0, Math.floor((tolerance + interval - full) / interval));
    return { waitMs, remaining, resetMs: full };
  }

  private headers(
    limit: number,
    quota: number,
    waitMs: number,
    remaining: number,
    resetMs: number,
  ): Record<string, string> {
    const seconds = (ms: number) => String(Math.ceil(ms / 1000));
    const retry: Record<string, string> = waitMs > 0 ? { 'retry-after': seconds(waitMs) } : {};
    switch (this.options.headers) {
      case 'none':
        return {};
      case 'retry-after-seconds':
        return retry;
      case 'retry-after-ms':
        return waitMs > 0 ? { ...retry, 'retry-after-ms': String(Math.ceil(waitMs)) } : {};
      case 'ietf':
        return {
          ...retry,
          'ratelimit-policy': `"default";q=${limit};w=1`,
          ratelimit: `"default";r=${remaining};t=${seconds(resetMs)}`,
        };
      case 'x-ratelimit':
        return {
          ...retry,
          'x-ratelimit-limit': String(quota),
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': seconds(resetMs),
        };
    }
  }
}
