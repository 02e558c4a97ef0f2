/**
 * How an injected HTTP error says when to try again.
 *
 * @publicApi
 */
export interface RetryAfterOptions {
  /** Whole seconds to wait; `null` sends no `Retry-After` at all. */
  readonly retryAfterSeconds?: number | null;
  /** `seconds` (`Retry-After: 2`) or `http-date` (`Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`). */
  readonly retryAfterFormat?: 'seconds' | 'http-date';
  /** Also send `retry-after-ms` (the OpenAI/Azure header) with the same wait in ms. */
  readonly retryAfterMsHeader?: boolean;
}

/**
 * The `retry-after` (and optional `retry-after-ms`) headers for a wait starting at `nowMs`.
 * An HTTP date has whole-second resolution, so it is rounded up: the date never asks for
 * less than the wait.
 */
export function retryAfterHeaders(
  nowMs: number,
  seconds: number | null,
  options: RetryAfterOptions,
): Record<string, string> {
  if (seconds === null) return {};
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw new RangeError(`retryAfterSeconds must be a whole number >= 0, got ${seconds}`);
  }
  const retryAfter =
    options.retryAfterFormat === 'http-date'
      ? new Date(Math.ceil((nowMs + seconds * 1000) / 1000) * 1000).toUTCString()
      : String(seconds);
  return options.retryAfterMsHeader === true
    ? { 'retry-after': retryAfter, 'retry-after-ms': String(seconds * 1000) }
    : { 'retry-after': retryAfter };
}
