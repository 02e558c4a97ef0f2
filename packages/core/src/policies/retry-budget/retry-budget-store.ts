import type { RetryBudgetSettings } from './retry-budget-options.js';
import { retryAllowance } from './retry-budget-options.js';
import { SlidingCallCounts } from './sliding-counts.js';

/**
 * Where the calls and retries of each retry budget are counted. The default,
 * {@link LocalRetryBudgetStore}, counts per process; a shared store (`@toolshield/redis`)
 * counts for every instance of the application, so the budget protects the upstream however
 * many instances call it.
 *
 * @publicApi
 */
export interface RetryBudgetStore {
  /** Counts a call (a first attempt) to the upstream `key` at clock time `now`. Never throws. */
  recordCall(key: string, settings: RetryBudgetSettings, now: number): void;
  /**
   * Takes one retry from `key`'s budget when the window allows it, and says whether it did.
   * A shared store that cannot be reached answers as it thinks best (the redis store decides
   * locally meanwhile); it never rejects.
   */
  tryRetry(key: string, settings: RetryBudgetSettings, now: number): boolean | Promise<boolean>;
}

/**
 * The in-process {@link RetryBudgetStore}: one sliding window per key, created on first use
 * with that caller's `windowMs`.
 *
 * @publicApi
 */
export class LocalRetryBudgetStore implements RetryBudgetStore {
  private readonly windows = new Map<string, SlidingCallCounts>();

  recordCall(key: string, settings: RetryBudgetSettings, now: number): void {
    this.window(key, settings).addCall(now);
  }

  tryRetry(key: string, settings: RetryBudgetSettings, now: number): boolean {
    const window = this.window(key, settings);
    const { calls, retries } = window.totals(now);
    if (retries + 1 > retryAllowance(settings, calls)) return false;
    window.addRetry(now);
    return true;
  }

  private window(key: string, settings: RetryBudgetSettings): SlidingCallCounts {
    let window = this.windows.get(key);
    if (window === undefined) {
      window = new SlidingCallCounts(settings.windowMs);
      this.windows.set(key, window);
    }
    return window;
  }
}
