import type { AbortSignalLike } from './abort-signal-like.js';
import type { Clock } from './clock.js';

/**
 * Resolves after `ms` of `clock` time. When `signal` aborts first, the timer is cancelled and
 * the promise rejects with `signal.reason`; an already aborted signal rejects at once. The
 * abort listener is removed either way.
 *
 * @publicApi
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignalLike): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason as unknown);
    };
    const cancel = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
