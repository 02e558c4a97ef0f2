import type { ChaosFault } from './chaos-fault.js';
import { networkError } from './network-error.fault.js';

/** @publicApi */
export interface FailFirstOptions {
  /**
   * What counts as "the first N".
   *
   * - `tool` (default): the first N calls of each tool that the rule matches fail, every
   *   later call succeeds.
   * - `attempt`: every call fails its first N attempts (`context.attempt <= N`) and succeeds
   *   on the next, which proves that retries recover.
   */
  readonly per?: 'tool' | 'attempt';
  /** The failure to inject (default `networkError('ECONNRESET')`). */
  readonly fault?: ChaosFault;
}

/**
 * Fails the first `count` calls (or attempts), then lets everything through. Counters and
 * events name the inner fault, since that is what was injected.
 *
 * @example
 * failFirst(2, { per: 'attempt', fault: upstreamError({ status: 503 }) })
 *
 * @publicApi
 */
export function failFirst(count: number, options: FailFirstOptions = {}): ChaosFault {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`failFirst needs a whole number >= 0, got ${count}`);
  }
  const inner = options.fault ?? networkError('ECONNRESET');
  const per = options.per ?? 'tool';
  return {
    name: inner.name,
    applies(invocation) {
      const index = per === 'tool' ? invocation.toolCallIndex : invocation.context.attempt;
      return index <= count && (inner.applies?.(invocation) ?? true);
    },
    inject(invocation, next) {
      return inner.inject(invocation, next);
    },
  };
}
