import type { ChaosFault } from './chaos-fault.js';
import { CHAOS_HTTP_URL, ChaosHttpError, type HttpErrorShape } from './http-error.js';
import { retryAfterHeaders, type RetryAfterOptions } from './retry-after-headers.js';

/** The 5xx statuses an unhealthy upstream answers with. @publicApi */
export type UpstreamStatus = 500 | 502 | 503 | 504;

/** @publicApi */
export interface UpstreamErrorOptions extends RetryAfterOptions {
  /** The status (default 503). */
  readonly status?: UpstreamStatus;
  /** Which client the error imitates (default `axios`). */
  readonly shape?: HttpErrorShape;
}

/**
 * Rejects with an HTTP 5xx as a client library throws it (default 503, no `Retry-After`
 * unless `retryAfterSeconds` is given). The tool is not called.
 *
 * @example
 * upstreamError({ status: 502, shape: 'fetch' })
 *
 * @publicApi
 */
export function upstreamError(options: UpstreamErrorOptions = {}): ChaosFault {
  const status = options.status ?? 503;
  const seconds = options.retryAfterSeconds ?? null;
  retryAfterHeaders(0, seconds, options); // rejects bad options now, not at the first call
  return {
    name: `http:${status}`,
    inject(invocation) {
      const headers = retryAfterHeaders(invocation.clock.now(), seconds, options);
      const error = new ChaosHttpError(status, headers, options.shape ?? 'axios', CHAOS_HTTP_URL);
      return Promise.reject(invocation.mark(error));
    },
  };
}
