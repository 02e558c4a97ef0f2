import { readHeader, type HeadersLike } from '../../classification/read-header.js';
import { parseRetryAfter } from '../../classification/retry-after.js';

/**
 * What an upstream said about its rate limit in one response. Every field is optional: most
 * upstreams say little.
 *
 * @publicApi
 */
export interface UpstreamRateSignals {
  /** Wait this long before the next request (`Retry-After`, `retry-after-ms`). */
  readonly retryAfterMs?: number;
  /**
   * `retryAfterMs` came from a `Retry-After` in whole seconds, without `retry-after-ms`: the
   * upstream's wait rounded to the header's unit (a bucket ready in 20 ms says 1).
   */
  readonly retryAfterInWholeSeconds?: boolean;
  /** Requests allowed per window (`RateLimit-Policy` `q`, `X-RateLimit-Limit`, ...). */
  readonly limit?: number;
  /** The window of `limit`, when the upstream says it (`RateLimit-Policy` `w`). */
  readonly windowMs?: number;
  /** Requests left in the current window. */
  readonly remaining?: number;
  /** Until the window resets, in ms. */
  readonly resetMs?: number;
}

/** A `Retry-After` of whole delta-seconds. */
const WHOLE_SECONDS = /^\s*\d+\s*$/;

/** Reset values above this are Unix times in seconds (as GitHub sends), not delta-seconds. */
const UNIX_SECONDS_THRESHOLD = 1_000_000_000;

/**
 * Reads an upstream's rate-limit headers: `Retry-After`/`retry-after-ms`, the IETF
 * `RateLimit-Policy` and `RateLimit` fields (structured form `"name";q=100;w=60` and
 * `"name";r=40;t=30`, and the earlier `limit=100, remaining=40, reset=30` form),
 * `RateLimit-Limit`/`-Remaining`/`-Reset`, and the common `X-RateLimit-Limit`/`-Remaining`/
 * `-Reset` (a reset larger than 10^9 is read as a Unix time in seconds). Malformed values
 * are ignored, never thrown.
 *
 * @example
 * readUpstreamRateSignals(response.headers, clock.now());
 * // { limit: 50, windowMs: 1000, remaining: 0, resetMs: 400 }
 * @publicApi
 */
export function readUpstreamRateSignals(
  headers: HeadersLike | null | undefined,
  nowMs: number,
): UpstreamRateSignals {
  if (typeof headers !== 'object' || headers === null) return {};
  const policy = structuredParams(readHeader(headers, 'ratelimit-policy'));
  const current = structuredParams(readHeader(headers, 'ratelimit'));
  const limit =
    policy.q ??
    current.limit ??
    count(readHeader(headers, 'ratelimit-limit')) ??
    count(readHeader(headers, 'x-ratelimit-limit'));
  const windowMs = policy.w === undefined ? undefined : policy.w * 1000;
  const remaining =
    current.r ??
    current.remaining ??
    count(readHeader(headers, 'ratelimit-remaining')) ??
    count(readHeader(headers, 'x-ratelimit-remaining'));
  const reset =
    current.t ??
    current.reset ??
    count(readHeader(headers, 'ratelimit-reset')) ??
    count(readHeader(headers, 'x-ratelimit-reset'));
  const retryAfterMs = parseRetryAfter(headers, nowMs);
  const preciseMs = readHeader(headers, 'retry-after-ms');
  const wholeSeconds =
    (preciseMs === undefined || preciseMs === null) &&
    WHOLE_SECONDS.test(String(readHeader(headers, 'retry-after')));
  return {
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(retryAfterMs !== undefined && wholeSeconds ? { retryAfterInWholeSeconds: true } : {}),
    ...(limit === undefined ? {} : { limit }),
    ...(windowMs === undefined ? {} : { windowMs }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(reset === undefined ? {} : { resetMs: resetDelayMs(reset, nowMs) }),
  };
}

function resetDelayMs(reset: number, nowMs: number): number {
  return reset > UNIX_SECONDS_THRESHOLD
    ? Math.max(0, reset * 1000 - nowMs)
    : Math.ceil(reset * 1000);
}

/** The numeric parameters of a structured-field or `key=value` list: `q`, `w`, `r`, `t`, `limit`, ... */
function structuredParams(value: unknown): Partial<Record<string, number>> {
  if (typeof value !== 'string') return {};
  const params: Partial<Record<string, number>> = {};
  // Only the first policy or item counts: items are separated by commas, parameters by `;`.
  const first = value.split(/,(?=\s*"|\s*[a-z-]+\s*;)/i)[0] ?? '';
  for (const part of first.split(/[;,]/)) {
    const [, key, value] = /^\s*([a-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(part) ?? [];
    if (key !== undefined) params[key.toLowerCase()] = Number(value);
  }
  return params;
}

function count(value: unknown): number | undefined {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return value !== '' && Number.isFinite(number) && number >= 0 ? number : undefined;
}
