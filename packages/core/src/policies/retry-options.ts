import type { ToolErrorType } from '../errors/tool-error-type.js';
import type { BackoffOptions } from './backoff-options.js';
import type { RetryBudgetOptions } from './retry-budget/retry-budget-options.js';

/**
 * Decides whether an error may be retried.
 *
 * @param error the error the attempt failed with
 * @param attempt the attempt that failed (1 for the first call)
 * @publicApi
 */
export type RetryPredicate = (error: unknown, attempt: number) => boolean;

/** What the `onRetry` hook is told before each retry. @publicApi */
export interface RetryInfo {
  /** The attempt that failed (1 for the first call). */
  readonly attempt: number;
  /** The wait before the next attempt. */
  readonly delayMs: number;
  /** The error of the failed attempt, or `undefined` when a result was retried. */
  readonly error?: unknown;
  /** The result that `retryOnResult` refused, when a result was retried. */
  readonly result?: unknown;
}

/**
 * Which errors are retried: a list of error types, a predicate, or both (then both must agree).
 *
 * @publicApi
 */
export type RetryOn =
  | readonly ToolErrorType[]
  | RetryPredicate
  | { readonly types?: readonly ToolErrorType[]; readonly when?: RetryPredicate };

/**
 * Retry settings. Only tools marked idempotent or carrying `@Retryable` are
 * retried at all; these options say how.
 *
 * @publicApi
 */
export interface RetryOptions {
  /** Retries after the first attempt, so at most `maxRetries + 1` attempts (default 2). */
  readonly maxRetries?: number;
  /** Delay between attempts (exponential, decorrelated jitter, 500 ms base, 10 s cap by default). */
  readonly backoff?: BackoffOptions;
  /**
   * Which errors are retried. Default: the types whose trait `retryable` is true (timeout,
   * rate_limited, network, upstream_unavailable, bulkhead_full), honouring a `ToolError`'s own
   * `retryable` override; anything that is not a `ToolError` counts as `internal` (not retried).
   */
  readonly retryOn?: RetryOn;
  /** Retries a successful attempt whose result this returns true for (e.g. an empty page). */
  readonly retryOnResult?: (result: unknown) => boolean;
  /**
   * The longest server-requested wait (`retryAfterMs`) honoured before a retry (default 60 s).
   * A longer wait ends the call at once with `rate_limited` and its `retryAfterMs`.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Total time per call, all attempts and waits included (default: unlimited). No wait is
   * started that would end past it, and each attempt ends by the time it runs out (as a
   * `timeout` whose metadata carries `budgetMs`), whatever the attempt's own limit.
   */
  readonly budgetMs?: number;
  /** Called before each wait; throwing from it ends the call with that error. */
  readonly onRetry?: (info: RetryInfo) => void;
  /**
   * How many retries the calls to the upstream may make, shared by every call to it: retries
   * are paid from a balance of at most 30 that each call fills by 0.1, each successful call by
   * 0.5 more, and time by 1 every 10 s (see `RetryBudgetOptions`). A flaky upstream that still
   * answers most calls earns more than its retries cost; a dead one gets about 10 % more
   * requests than calls. When the balance is empty a failure returns at once (`retryCount`
   * says how many retries were made, the failure that retries were withheld). `false` turns
   * it off. Applied where calls share a budget: `shieldTool`,
   * `composePolicies` and the Nest module; the bare `retry()` helper takes a `budget` gate.
   */
  readonly retryBudget?: RetryBudgetOptions | false;
}
