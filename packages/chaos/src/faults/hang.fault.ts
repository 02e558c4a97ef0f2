import type { ChaosFault } from './chaos-fault.js';

/**
 * A timeout: the call hangs, without calling the tool, until its signal aborts (the attempt
 * timeout or the caller), then rejects with the signal's reason, exactly like a well-behaved
 * tool whose upstream never answers. It sets no timer, so it costs nothing while it waits;
 * a pipeline without a timeout hangs for good, which is what this fault is there to prove.
 *
 * @publicApi
 */
export function hang(): ChaosFault {
  return {
    name: 'timeout',
    inject(invocation) {
      const { signal } = invocation.context;
      if (signal.aborted) return Promise.reject(signal.reason as unknown);
      return new Promise<never>((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as unknown), { once: true });
      });
    },
  };
}
