import { readHeader, type HeadersLike } from './read-header.js';

export type { HeadersLike } from './read-header.js';

const DELTA_SECONDS = /^\s*\d+(?:\.\d+)?\s*$/;
/** IMF-fixdate, RFC 850 and asctime dates all start with a day name. */
const HTTP_DATE = /^\s*[A-Za-z]{3}/;

/**
 * How long to wait before retrying, in ms, from a `Retry-After` value or from response
 * headers. Understands delta-seconds (`120`), HTTP dates (`Wed, 21 Oct 2026 07:28:00 GMT`,
 * a past date means 0) and, in headers, the more precise `retry-after-ms` (preferred when
 * both are present). Negative, empty or unparseable values give `undefined`.
 *
 * @param source a header value (string or number of seconds) or a set of headers
 * @param nowMs the current time, to turn an HTTP date into a delay
 *
 * @example
 * parseRetryAfter('2', now);                          // 2000
 * parseRetryAfter(new Headers({ 'Retry-After-Ms': '150' }), now); // 150
 *
 * @publicApi
 */
export function parseRetryAfter(
  source: string | number | HeadersLike | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (typeof source === 'string' || typeof source === 'number') {
    return parseRetryAfterValue(source, nowMs);
  }
  if (typeof source !== 'object' || source === null) return undefined;
  return (
    parseMilliseconds(readHeader(source, 'retry-after-ms')) ??
    parseRetryAfterValue(readHeader(source, 'retry-after'), nowMs)
  );
}

function parseRetryAfterValue(value: unknown, nowMs: number): number | undefined {
  if (typeof value === 'number') return nonNegative(value * 1000);
  if (typeof value !== 'string') return undefined;
  if (DELTA_SECONDS.test(value)) return nonNegative(Number(value) * 1000);
  if (!HTTP_DATE.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function parseMilliseconds(value: unknown): number | undefined {
  if (typeof value === 'number') return nonNegative(value);
  return typeof value === 'string' && DELTA_SECONDS.test(value)
    ? nonNegative(Number(value))
    : undefined;
}

function nonNegative(ms: number): number | undefined {
  return Number.isFinite(ms) && ms >= 0 ? Math.ceil(ms) : undefined;
}
