import type { AbortSignalLike } from '../clock/abort-signal-like.js';
import type { Clock } from '../clock/clock.js';
import { sleep } from '../clock/sleep.js';
import { systemClock } from '../clock/system-clock.js';
import { cancellationError } from './cancellation.js';
import { decideRetry, decideRetryOnResult } from './retry-decision.js';
import type { RetryBudgetGate } from './retry-budget/retry-budget.js';
import {
  toRetryPolicy,
  type RetryInfo,
  type RetryOptions,
  type RetryPolicy,
} from './retry-policy.js';

/** Where a policy gets its time and cancellation from. @publicApi */
export interface PolicyContext {
  /** Default: the shared `SystemClock`. */
  readonly clock?: Clock;
  /** The caller's signal: aborting it ends the call with a `CancelledError` (or the reason, if a `ToolError`). */
  readonly signal?: AbortSignalLike;
}

/** What {@link retry} runs with. @publicApi */
export interface RetryContext extends PolicyContext {
  /** Clock time the call started, from which `budgetMs` counts (default: when `retry` is called). */
  readonly startedAt?: number;
  /**
   * The retry budget of the upstream (see `RetryOptions.retryBudget`): the call is counted
   * once, each retry must be taken from it, and a success is counted. Default: none.
   */
  readonly budget?: RetryBudgetGate;
  /**
   * Told when the budget withheld a retry: the call then ends at once with the attempt's
   * error (or its result, when `retryOnResult` refused it).
   */
  readonly onWithheld?: (info: RetryInfo) => void;
}

/**
 * Runs `fn` and retries it as {@link decideRetry} and {@link decideRetryOnResult} decide,
 * waiting on the clock between attempts. Makes at most `maxRetries + 1` attempts; resolves
 * with the first accepted result or rejects with the final error. Aborting `signal` ends the
 * wait and the loop. `budgetMs` is checked before each wait; to also end an attempt when the
 * budget runs out, run each attempt through `withTimeout` with the call's `callBudget` (as
 * `composePolicies` does). With a `budget` gate, each retry is taken from the upstream's retry
 * budget first (when it is spent, the call ends at once), and a success earns the budget back.
 *
 * @param fn the attempt; receives its number (1 for the first call)
 * @param options options, or a policy resolved once with `resolveRetryPolicy`
 * @example
 * const page = await retry(() => fetchPage(url), { maxRetries: 3 }, { clock, signal });
 * @publicApi
 */
export async function retry<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions | RetryPolicy = {},
  context: RetryContext = {},
): Promise<T> {
  const policy = toRetryPolicy(options);
  const { clock = systemClock, signal, budget } = context;
  const start = context.startedAt ?? clock.now();
  let previousDelayMs: number | undefined;
  budget?.recordCall();
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw cancellationError(signal.reason);
    let info: RetryInfo;
    try {
      const result = await fn(attempt);
      const decision =
        policy.retryOnResult === undefined
          ? undefined
          : decideRetryOnResult(
              result,
              { attempt, elapsedMs: clock.now() - start, previousDelayMs },
              policy,
            );
      if (decision === undefined || !decision.retry) {
        budget?.recordSuccess();
        return result;
      }
      info = { attempt, delayMs: decision.delayMs, result };
    } catch (error) {
      const decision = decideRetry(
        error,
        { attempt, elapsedMs: clock.now() - start, previousDelayMs },
        policy,
      );
      if (!decision.retry) throw decision.error;
      info = { attempt, delayMs: decision.delayMs, error };
    }
    if (budget !== undefined && !(await budget.tryRetry())) {
      context.onWithheld?.(info);
      if ('error' in info) throw info.error;
      return info.result as T;
    }
    policy.onRetry?.(info);
    await sleep(clock, info.delayMs, signal).catch((reason: unknown) => {
      throw cancellationError(reason);
    });
    previousDelayMs = info.delayMs;
  }
}
