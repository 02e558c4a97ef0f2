import { RateLimitedError } from '../errors/rate-limited.error.js';
import { isToolError, type ToolError } from '../errors/tool-error.js';
import { backoffDelay, backoffMinimum } from './backoff.js';
import type { RetryPolicy } from './retry-policy.js';

/** Where a call stands when an attempt has ended. @publicApi */
export interface RetryState {
  /** Attempts made so far, the one that just ended included (1 after the first call). */
  readonly attempt: number;
  /** Clock time since the call started, in ms. */
  readonly elapsedMs: number;
  /** The delay waited before the attempt that just ended (decorrelated jitter grows from it). */
  readonly previousDelayMs?: number;
}

/**
 * What to do after a failed attempt: wait `delayMs` and try again, or end the call with
 * `error` (the attempt's error, or a `RateLimitedError` when the server asked for a wait
 * longer than allowed).
 *
 * @publicApi
 */
export type RetryDecision =
  | { readonly retry: true; readonly delayMs: number }
  | { readonly retry: false; readonly error: unknown };

/** What to do after an attempt that returned a result. @publicApi */
export type ResultRetryDecision =
  { readonly retry: true; readonly delayMs: number } | { readonly retry: false };

/**
 * Decides, without side effects, whether a failed attempt is retried and after how long, so
 * that the promise helper {@link retry} and an rxjs interceptor share one rule:
 *
 * 1. no retry once `maxRetries` retries were made, or when `retryOn` refuses the error;
 * 2. an error carrying `retryAfterMs` waits that long, and at least the backoff's minimum
 *    (`min(baseMs, capMs)`), so `Retry-After: 0` is no licence to retry at once; when that exceeds
 *    `maxRetryAfterMs` or the remaining budget, the call ends now with `rate_limited` and the
 *    `retryAfterMs`, so the agent can decide whether to come back;
 * 3. otherwise the backoff delay, unless it would end past the budget.
 *
 * @publicApi
 */
export function decideRetry(error: unknown, state: RetryState, policy: RetryPolicy): RetryDecision {
  if (state.attempt > policy.maxRetries || !policy.isRetryable(error, state.attempt)) {
    return { retry: false, error };
  }
  if (hasRetryAfter(error)) {
    const retryAfterMs = Math.max(0, error.retryAfterMs);
    const delayMs = Math.max(retryAfterMs, backoffMinimum(policy.backoff));
    return retryAfterMs <= policy.maxRetryAfterMs && fitsBudget(delayMs, state, policy)
      ? { retry: true, delayMs }
      : { retry: false, error: asRateLimited(error, retryAfterMs) };
  }
  const delayMs = backoffDelay(policy.backoff, state.attempt, state.previousDelayMs);
  return fitsBudget(delayMs, state, policy) ? { retry: true, delayMs } : { retry: false, error };
}

/**
 * Decides, without side effects, whether an attempt's result is refused by `retryOnResult`
 * and retried. When retries or budget are exhausted, the result stands.
 *
 * @publicApi
 */
export function decideRetryOnResult(
  result: unknown,
  state: RetryState,
  policy: RetryPolicy,
): ResultRetryDecision {
  if (
    policy.retryOnResult === undefined ||
    state.attempt > policy.maxRetries ||
    !policy.retryOnResult(result)
  ) {
    return { retry: false };
  }
  const delayMs = backoffDelay(policy.backoff, state.attempt, state.previousDelayMs);
  return fitsBudget(delayMs, state, policy) ? { retry: true, delayMs } : { retry: false };
}

function fitsBudget(delayMs: number, state: RetryState, policy: RetryPolicy): boolean {
  return state.elapsedMs + delayMs < policy.budgetMs;
}

function hasRetryAfter(error: unknown): error is ToolError & { readonly retryAfterMs: number } {
  return (
    isToolError(error) &&
    typeof error.retryAfterMs === 'number' &&
    !Number.isNaN(error.retryAfterMs)
  );
}

function asRateLimited(error: ToolError, retryAfterMs: number): ToolError {
  if (error.type === 'rate_limited') return error;
  return new RateLimitedError(error.message, {
    cause: error,
    captureStack: false,
    toolName: error.toolName,
    retryAfterMs,
    metadata: error.metadata,
  });
}
