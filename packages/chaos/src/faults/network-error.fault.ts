import type { ChaosFault } from './chaos-fault.js';
import {
  createFetchFailedError,
  createNodeNetworkError,
  type NodeNetworkErrorCode,
} from './node-network-error.js';

/**
 * Rejects with a Node connection error (`ECONNRESET` by default) exactly as `net`/`dns`
 * produce it: `code`, `errno`, `syscall`. The tool is not called.
 *
 * @example
 * networkError('ECONNREFUSED')
 *
 * @publicApi
 */
export function networkError(code: NodeNetworkErrorCode = 'ECONNRESET'): ChaosFault {
  return {
    name: `network:${code}`,
    inject(invocation) {
      return Promise.reject(invocation.mark(createNodeNetworkError(code)));
    },
  };
}

/**
 * Rejects with undici's `TypeError('fetch failed')` whose `cause` is a Node connection error
 * (`ECONNREFUSED` by default). The tool is not called.
 *
 * @publicApi
 */
export function fetchFailed(causeCode: NodeNetworkErrorCode = 'ECONNREFUSED'): ChaosFault {
  return {
    name: 'network:fetch-failed',
    inject(invocation) {
      return Promise.reject(invocation.mark(createFetchFailedError(causeCode)));
    },
  };
}
