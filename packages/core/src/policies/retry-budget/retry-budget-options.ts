/**
 * How many retries the calls to one upstream may add. Retries are allowed while, over the
 * last `windowMs`, they stay within `ratio` of the calls made, or within
 * `minRetriesPerSecond` (whichever allows more, so a quiet tool still retries its blips).
 * Past that, failures return at once: under an outage retries would only multiply the load
 * on an upstream that is already failing.
 *
 * @example
 * // At most one retry per ten calls, counted over the last 30 s:
 * { ratio: 0.1, windowMs: 30_000 }
 * @publicApi
 */
export interface RetryBudgetOptions {
  /** Share of the calls in the window that retries may add (default 0.1: 10 %). From 0 to 1000. */
  readonly ratio?: number;
  /** Retries allowed per second of the window whatever the traffic (default 1). */
  readonly minRetriesPerSecond?: number;
  /** The sliding window the calls and retries are counted in, in ms (default 10 s). */
  readonly windowMs?: number;
  /**
   * The upstream the budget protects: tools naming the same key share one budget (default: the
   * tool's breaker, or its named rate limit, or the tool itself).
   */
  readonly key?: string;
}

/** {@link RetryBudgetOptions} with every default applied (the key stays optional). @publicApi */
export interface RetryBudgetSettings {
  readonly ratio: number;
  readonly minRetriesPerSecond: number;
  readonly windowMs: number;
  readonly key?: string;
}

/** @publicApi */
export const DEFAULT_RETRY_BUDGET: RetryBudgetSettings = Object.freeze({
  ratio: 0.1,
  minRetriesPerSecond: 1,
  windowMs: 10_000,
});

/** Applies the defaults of {@link DEFAULT_RETRY_BUDGET} (options checked by the retry options' rule). @publicApi */
export function resolveRetryBudget(options: RetryBudgetOptions = {}): RetryBudgetSettings {
  return Object.freeze({
    ratio: options.ratio ?? DEFAULT_RETRY_BUDGET.ratio,
    minRetriesPerSecond: options.minRetriesPerSecond ?? DEFAULT_RETRY_BUDGET.minRetriesPerSecond,
    windowMs: options.windowMs ?? DEFAULT_RETRY_BUDGET.windowMs,
    ...(options.key === undefined ? {} : { key: options.key }),
  });
}

/**
 * The most retries the window allows for `calls` calls in it: `ratio` of them, or the floor of
 * `minRetriesPerSecond` over the window, whichever is more.
 *
 * @publicApi
 */
export function retryAllowance(settings: RetryBudgetSettings, calls: number): number {
  return Math.max(
    settings.ratio * calls,
    (settings.minRetriesPerSecond * settings.windowMs) / 1_000,
  );
}
