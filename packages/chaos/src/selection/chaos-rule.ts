import type { ChaosFault } from '../faults/chaos-fault.js';

/**
 * When and where a fault is injected. Every condition given must hold; a call is then
 * injected with probability `probability`.
 *
 * Counting: a rule counts the calls it *matches* (tool name and time window). `firstN`,
 * `everyNth` and the probability draw are decided on that count, so "every 3rd call"
 * means every 3rd call of the matched tools inside the window.
 *
 * @example
 * { name: 'flaky-search', tools: ['search.*'], fault: networkError('ECONNRESET'), probability: 0.2 }
 *
 * @publicApi
 */
export interface ChaosRule {
  /** Unique id for counters, events and removal (default `rule-1`, `rule-2`, ... in order added). */
  readonly name?: string;
  /** Tool names or picomatch globs (`search.*`, `github_*`); all tools when omitted. */
  readonly tools?: string | readonly string[];
  /** The fault to inject. */
  readonly fault: ChaosFault;
  /** Chance to inject a selected call, in `[0, 1]` (default 1). */
  readonly probability?: number;
  /** Only the Nth, 2Nth, ... matched call. */
  readonly everyNth?: number;
  /** Only the first N matched calls. */
  readonly firstN?: number;
  /** Clock time (ms since the epoch, or a Date) before which the rule is dormant. */
  readonly activeFrom?: number | Date;
  /** Clock time (ms since the epoch, or a Date) from which on the rule is dormant. */
  readonly activeUntil?: number | Date;
  /** Stop after this many injections. */
  readonly maxInjections?: number;
  /** Overrides the seed derived from the controller's seed and the rule's name. */
  readonly seed?: number;
}
