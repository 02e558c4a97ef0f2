import type { RetryBudgetOptions } from '../../policies/retry-budget/retry-budget-options.js';
import { milliseconds, numberIn, objectOf, text } from '../option-rules.js';

/** How {@link RetryBudgetOptions} are checked. @publicApi */
export const RETRY_BUDGET_OPTIONS_RULE = objectOf<RetryBudgetOptions>({
  ratio: numberIn(0, 1_000),
  minRetriesPerSecond: numberIn(0, 1_000_000),
  windowMs: milliseconds({ positive: true }),
  key: text(true),
});
