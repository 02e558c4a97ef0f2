/**
 * How many retries the calls to one upstream may make. Retries are paid from a balance that
 * calls, successes and time fill, up to `burst`:
 *
 * - each call (first attempt) earns `ratio` of a retry, and each successful call earns
 *   `successRatio` more: an upstream that still answers most calls earns more than its
 *   retries cost, one that answers none earns only `ratio`;
 * - `minRetriesPerSecond` come in whatever the traffic, so a budget an outage emptied comes back;
 * - the balance never holds more than `burst`: a fresh budget starts with it (a first burst of
 *   failures is retried), and no healthy spell saves up more for the outage after it.
 *
 * A retry takes one; when none is left the failure returns at once. Over any stretch of time,
 * retries ≤ `burst` + `ratio` × calls + `successRatio` × successful calls
 * + `minRetriesPerSecond` × seconds.
 *
 * @example
 * // A dead upstream gets 5 % more requests than calls (and 1 every 10 s), after the first 10:
 * { ratio: 0.05, burst: 10 }
 * @publicApi
 */
export interface RetryBudgetOptions {
  /** Retries each call earns, whatever its outcome (default 0.1: 10 %). From 0 to 1000. */
  readonly ratio?: number;
  /** Retries each successful call earns on top of `ratio` (default 0.5). From 0 to 1000. */
  readonly successRatio?: number;
  /** Retries earned per second whatever the traffic (default 0.1: one every 10 s). */
  readonly minRetriesPerSecond?: number;
  /** The most retries the budget holds, and what a fresh budget starts with (default 30). */
  readonly burst?: number;
  /**
   * The upstream the budget protects: tools naming the same key share one budget (default: the
   * tool's breaker, or its named rate limit, or the tool itself).
   */
  readonly key?: string;
}

/** {@link RetryBudgetOptions} with every default applied (the key stays optional). @publicApi */
export interface RetryBudgetSettings {
  readonly ratio: number;
  readonly successRatio: number;
  readonly minRetriesPerSecond: number;
  readonly burst: number;
  readonly key?: string;
}

/**
 * The defaults, each chosen for a reason (ADR 0024, figures in docs/benchmarks.md):
 *
 * - `ratio` 0.1: on a dead upstream retries add at most 10 % to the calls (the SRE book's
 *   per-client budget), well under the 1.2 requests per call the defaults promise;
 * - `successRatio` 0.5: with `ratio`, a call that succeeds earns 0.6 retries, above the 0.42
 *   a call needs when 30 % of attempts fail (3 retries), so a flaky upstream keeps every retry;
 *   past about 38 % failing attempts the retries cost more than they earn and are cut back;
 * - `minRetriesPerSecond` 0.1: a budget an outage emptied comes back by itself, a retry every
 *   10 s, without waiting for a success; more would add to a dead upstream's load where calls
 *   are few (1 a second is 10 % more requests at 10 calls a second);
 * - `burst` 30: covers the retries of 50 callers starting at once at 30 % failures (about 21
 *   with 3 retries each, 15 of them at once), and is all a dead upstream gets from the
 *   healthy time before it died.
 *
 * @publicApi
 */
export const DEFAULT_RETRY_BUDGET: RetryBudgetSettings = Object.freeze({
  ratio: 0.1,
  successRatio: 0.5,
  minRetriesPerSecond: 0.1,
  burst: 30,
});

/** Applies the defaults of {@link DEFAULT_RETRY_BUDGET} (options checked by the retry options' rule). @publicApi */
export function resolveRetryBudget(options: RetryBudgetOptions = {}): RetryBudgetSettings {
  return Object.freeze({
    ratio: options.ratio ?? DEFAULT_RETRY_BUDGET.ratio,
    successRatio: options.successRatio ?? DEFAULT_RETRY_BUDGET.successRatio,
    minRetriesPerSecond: options.minRetriesPerSecond ?? DEFAULT_RETRY_BUDGET.minRetriesPerSecond,
    burst: options.burst ?? DEFAULT_RETRY_BUDGET.burst,
    ...(options.key === undefined ? {} : { key: options.key }),
  });
}
