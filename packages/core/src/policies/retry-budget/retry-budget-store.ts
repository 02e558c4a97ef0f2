import type { RetryBudgetSettings } from './retry-budget-options.js';
import { RetryTokens } from './retry-tokens.js';

/**
 * Where the retry balance of each upstream is kept (see `RetryBudgetOptions`). The default,
 * {@link LocalRetryBudgetStore}, keeps it per process; a shared store (`@toolshield/redis`)
 * keeps one for every instance of the application, so the budget protects the upstream
 * however many instances call it.
 *
 * @publicApi
 */
export interface RetryBudgetStore {
  /** Counts a call (a first attempt) to the upstream `key` at clock time `now`: it earns `ratio`. Never throws. */
  recordCall(key: string, settings: RetryBudgetSettings, now: number): void;
  /** Counts a call to `key` that succeeded: it earns `successRatio`. Never throws. */
  recordSuccess(key: string, settings: RetryBudgetSettings, now: number): void;
  /**
   * Takes one retry from `key`'s balance when it holds one, and says whether it did.
   * A shared store that cannot be reached answers as it thinks best (the redis store decides
   * locally meanwhile); it never rejects.
   */
  tryRetry(key: string, settings: RetryBudgetSettings, now: number): boolean | Promise<boolean>;
}

/**
 * The in-process {@link RetryBudgetStore}: one balance per key, full when first used.
 *
 * @publicApi
 */
export class LocalRetryBudgetStore implements RetryBudgetStore {
  private readonly balances = new Map<string, RetryTokens>();

  recordCall(key: string, settings: RetryBudgetSettings, now: number): void {
    this.balance(key, settings, now).earn(settings.ratio, settings, now);
  }

  recordSuccess(key: string, settings: RetryBudgetSettings, now: number): void {
    this.balance(key, settings, now).earn(settings.successRatio, settings, now);
  }

  tryRetry(key: string, settings: RetryBudgetSettings, now: number): boolean {
    return this.balance(key, settings, now).take(settings, now);
  }

  private balance(key: string, settings: RetryBudgetSettings, now: number): RetryTokens {
    let balance = this.balances.get(key);
    if (balance === undefined) {
      balance = new RetryTokens(settings, now);
      this.balances.set(key, balance);
    }
    return balance;
  }
}
