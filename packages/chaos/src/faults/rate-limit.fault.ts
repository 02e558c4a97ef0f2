import type { ChaosFault } from './chaos-fault.js';
import { CHAOS_HTTP_URL, ChaosHttpError, type HttpErrorShape } from './http-error.js';
import { retryAfterHeaders, type RetryAfterOptions } from './retry-after-headers.js';

/** @publicApi */
export interface RateLimitFaultOptions extends RetryAfterOptions {
  /** Which client the error imitates (default `axios`). */
  readonly shape?: HttpErrorShape;
}

/**
 * Rejects with an HTTP 429 as a client library throws it, with `Retry-After` in seconds
 * (default 1) or as an HTTP date, and optionally `retry-after-ms`. The tool is not called.
 *
 * @example
 * rateLimit({ retryAfterSeconds: 30, retryAfterFormat: 'http-date' })
 *
 * @publicApi
 */
export function rateLimit(options: RateLimitFaultOptions = {}): ChaosFault {
  const seconds = options.retryAfterSeconds === undefined ? 1 : options.retryAfterSeconds;
  retryAfterHeaders(0, seconds, options); // rejects bad options now, not at the first call
  return {
    name: 'http:429',
    inject(invocation) {
      const headers = retryAfterHeaders(invocation.clock.now(), seconds, options);
      const error = new ChaosHttpError(429, headers, options.shape ?? 'axios', CHAOS_HTTP_URL);
      return Promise.reject(invocation.mark(error));
    },
  };
}
