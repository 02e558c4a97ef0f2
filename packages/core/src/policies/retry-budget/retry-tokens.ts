import type { RetryBudgetSettings } from './retry-budget-options.js';

/**
 * One upstream's retry balance (see `RetryBudgetOptions`): full (`burst`) when created,
 * filled by what calls and successes earn and by `minRetriesPerSecond` of clock time, never
 * above `burst`; a retry takes one.
 *
 * @internal
 */
export class RetryTokens {
  private tokens: number;
  private at: number;

  constructor(settings: RetryBudgetSettings, now: number) {
    this.tokens = settings.burst;
    this.at = now;
  }

  /** Adds `earned` retries (and what the time since the last change earned), up to `burst`. */
  earn(earned: number, settings: RetryBudgetSettings, now: number): void {
    this.tokens = Math.min(settings.burst, this.balance(settings, now) + earned);
    this.at = Math.max(this.at, now);
  }

  /** Takes one retry when the balance holds one, and says whether it did. */
  take(settings: RetryBudgetSettings, now: number): boolean {
    this.earn(0, settings, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** The balance at `now`: what it held plus what time earned since, up to `burst`. */
  private balance(settings: RetryBudgetSettings, now: number): number {
    const elapsedMs = Math.max(0, now - this.at);
    return Math.min(
      settings.burst,
      this.tokens + (elapsedMs * settings.minRetriesPerSecond) / 1_000,
    );
  }
}
