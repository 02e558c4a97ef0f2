import type { Clock } from '../../clock/clock.js';
import type { RetryBudgetSettings } from './retry-budget-options.js';
import type { RetryBudgetStore } from './retry-budget-store.js';

/**
 * One call's view of the retry budget of the upstream it calls (see `RetryBudgetOptions`):
 * `retry()` counts the call once, asks before each retry, and counts the call's success.
 *
 * @publicApi
 */
export interface RetryBudgetGate {
  /** The upstream's key, for events. */
  readonly key: string;
  /** Counts the call (its first attempt). */
  recordCall(): void;
  /** Counts the call's success (the attempt whose result was accepted). */
  recordSuccess(): void;
  /** Takes a retry from the budget; false when the budget is spent. */
  tryRetry(): boolean | Promise<boolean>;
}

/**
 * The {@link RetryBudgetGate} of the upstream `key`, counting in `store` at `clock`'s time.
 *
 * @example
 * const gate = retryBudgetGate('search-api', resolveRetryBudget(), new LocalRetryBudgetStore(), clock);
 * await retry(() => search(query), { maxRetries: 2 }, { clock, budget: gate });
 * @publicApi
 */
export function retryBudgetGate(
  key: string,
  settings: RetryBudgetSettings,
  store: RetryBudgetStore,
  clock: Clock,
): RetryBudgetGate {
  return {
    key,
    recordCall: () => store.recordCall(key, settings, clock.now()),
    recordSuccess: () => store.recordSuccess(key, settings, clock.now()),
    tryRetry: () => store.tryRetry(key, settings, clock.now()),
  };
}
