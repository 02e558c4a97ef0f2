/**
 * How the fixture upstream counts its limit and what it tells its clients, one kind per row of
 * `bench:upstream`:
 * - `sliding-log`: at most the limit within any second (a log of accepted requests); a refusal
 *   says only a whole-second `Retry-After`;
 * - `fixed-window`: at most the limit per one-second window, and nothing at all (a bare 429);
 * - `fixed-window-ietf`: the same, with the IETF `RateLimit-Policy`/`RateLimit` headers on every
 *   response and a whole-second `Retry-After` (express-rate-limit's style);
 * - `token-bucket`: a GCRA bucket (burst 5) answering 429 with `Retry-After` and the precise
 *   `retry-after-ms` (OpenAI's and Azure's style), no other header;
 * - `token-bucket-ietf`: a bucket with burst 10 sending `RateLimit-Policy` (`q` = the rate,
 *   `w=1`) and `RateLimit` (`r` = tokens left, `t` = whole seconds until full);
 * - `token-bucket-x`: a bucket with burst 10 sending `X-RateLimit-Limit` (its size),
 *   `X-RateLimit-Remaining` (tokens left) and `X-RateLimit-Reset` (whole seconds until full), and
 *   a whole-second `Retry-After` on a refusal.
 */
export type UpstreamKind =
  | 'sliding-log'
  | 'fixed-window'
  | 'fixed-window-ietf'
  | 'token-bucket'
  | 'token-bucket-ietf'
  | 'token-bucket-x';

export interface UpstreamDecision {
  readonly ok: boolean;
  readonly headers: Record<string, string>;
}

const seconds = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));

export class UpstreamCounter {
  private tat = 0;
  private window = -1;
  private used = 0;
  private readonly log: number[] = [];

  constructor(private readonly kind: UpstreamKind) {}

  /** Takes or refuses a request arriving `elapsed` ms after the start, under `limit` per second. */
  decide(elapsed: number, limit: number): UpstreamDecision {
    switch (this.kind) {
      case 'sliding-log':
        return this.slidingLog(elapsed, limit);
      case 'fixed-window':
      case 'fixed-window-ietf':
        return this.fixedWindow(elapsed, limit);
      case 'token-bucket':
        return this.bucket(elapsed, limit, 5);
      case 'token-bucket-ietf':
      case 'token-bucket-x':
        return this.bucket(elapsed, limit, 10);
    }
  }

  private slidingLog(elapsed: number, limit: number): UpstreamDecision {
    while (this.log.length > 0 && (this.log[0] as number) <= elapsed - 1000) this.log.shift();
    if (this.log.length < limit) {
      this.log.push(elapsed);
      return { ok: true, headers: {} };
    }
    return {
      ok: false,
      headers: { 'retry-after': seconds((this.log[0] as number) + 1000 - elapsed) },
    };
  }

  private fixedWindow(elapsed: number, limit: number): UpstreamDecision {
    const current = Math.floor(elapsed / 1000);
    if (current !== this.window) [this.window, this.used] = [current, 0];
    const ok = this.used < limit;
    if (ok) this.used++;
    if (this.kind === 'fixed-window') return { ok, headers: {} };
    const reset = seconds(1000 * (current + 1) - elapsed);
    const headers: Record<string, string> = {
      'ratelimit-policy': `"default";q=${limit};w=1`,
      ratelimit: `"default";r=${limit - this.used};t=${reset}`,
    };
    if (!ok) headers['retry-after'] = reset;
    return { ok, headers };
  }

  private bucket(elapsed: number, limit: number, burst: number): UpstreamDecision {
    const interval = 1000 / limit;
    const tolerance = (burst - 1) * interval;
    const waitMs = Math.max(0, this.tat - tolerance - elapsed);
    const ok = waitMs === 0;
    if (ok) this.tat = Math.max(elapsed, this.tat) + interval;
    const untilFull = Math.max(0, this.tat - elapsed);
    const remaining = Math.max(0, Math.floor((tolerance + interval - untilFull) / interval));
    const retry: Record<string, string> = ok ? {} : { 'retry-after': seconds(waitMs) };
    if (this.kind === 'token-bucket')
      return { ok, headers: ok ? {} : { ...retry, 'retry-after-ms': String(Math.ceil(waitMs)) } };
    if (this.kind === 'token-bucket-ietf')
      return {
        ok,
        headers: {
          ...retry,
          'ratelimit-policy': `"default";q=${limit};w=1`,
          ratelimit: `"default";r=${remaining};t=${untilFull === 0 ? 0 : seconds(untilFull)}`,
        },
      };
    return {
      ok,
      headers: {
        ...retry,
        'x-ratelimit-limit': String(burst),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': untilFull === 0 ? '0' : seconds(untilFull),
      },
    };
  }
}
