import { ToolTimeoutError } from '../errors/timeout.error.js';

/**
 * The end of a call's total time budget (`RetryOptions.budgetMs`) on the clock. Every attempt
 * of the call ends by then at the latest, whatever its own time limit.
 *
 * @publicApi
 */
export interface CallBudget {
  /** The budget, for the error that reports its end. */
  readonly budgetMs: number;
  /** Clock time (ms) at which the budget runs out. */
  readonly endsAt: number;
}

/**
 * The budget of a call started at `startedAt`, or `undefined` when it is unlimited (`budgetMs`
 * absent or infinite).
 *
 * @example
 * const budget = callBudget(policy.budgetMs, clock.now());
 * await withTimeout(run, { timeoutMs: 1_000, budget, clock });
 * @publicApi
 */
export function callBudget(
  budgetMs: number | undefined,
  startedAt: number,
): CallBudget | undefined {
  return budgetMs === undefined || !Number.isFinite(budgetMs)
    ? undefined
    : { budgetMs, endsAt: startedAt + budgetMs };
}

/**
 * The error an attempt ends with when the call's budget, not the attempt's own limit, ran out.
 * A `timeout` whose metadata carries `budgetMs`.
 *
 * @publicApi
 */
export function budgetExhaustedError(budget: CallBudget, toolName?: string): ToolTimeoutError {
  return new ToolTimeoutError(
    `The call's total time budget of ${budget.budgetMs} ms ran out before the tool finished`,
    { toolName, captureStack: false, metadata: { budgetMs: budget.budgetMs } },
  );
}
