import { readHttpErrorFacts } from '../../classification/http-error-facts.js';
import type { ToolError } from '../../errors/tool-error.js';
import { readUpstreamRateSignals, type UpstreamRateSignals } from './upstream-rate-signals.js';

/** The metadata key a client-side limiter puts on its own refusals. @internal */
export const RATE_LIMIT_KEY_METADATA = 'rateLimitKey';

/**
 * What an upstream's refusal says, when `error` (already classified as `classified`) is one:
 * a `rate_limited` error, or an `upstream_unavailable` one that carries a `Retry-After` (503
 * with Retry-After is how many upstreams shed load). The signals come from the response
 * headers the error carries, with the classifier's `retryAfterMs`. A client-side limiter's
 * own refusal is not the upstream's: `undefined`.
 *
 * @publicApi
 */
export function readUpstreamRefusal(
  error: unknown,
  classified: ToolError,
  nowMs: number,
): UpstreamRateSignals | undefined {
  if (Object.hasOwn(classified.metadata, RATE_LIMIT_KEY_METADATA)) return undefined;
  const refused =
    classified.type === 'rate_limited' ||
    (classified.type === 'upstream_unavailable' && classified.retryAfterMs !== undefined);
  if (!refused) return undefined;
  const signals = readUpstreamRateSignals(readHttpErrorFacts(error)?.headers, nowMs);
  const { retryAfterMs } = classified;
  if (retryAfterMs === undefined || retryAfterMs === signals.retryAfterMs) return signals;
  // The classifier's wait, from elsewhere than these headers: its unit is unknown.
  const { retryAfterInWholeSeconds: _fromHeaders, ...rest } = signals;
  return { ...rest, retryAfterMs };
}
