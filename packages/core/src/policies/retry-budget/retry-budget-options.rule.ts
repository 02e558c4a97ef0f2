import type { RetryBudgetOptions } from './retry-budget-options.js';
import { numberIn, objectOf, text } from '../../options/option-rules.js';

/** How {@link RetryBudgetOptions} are checked. @publicApi */
export const RETRY_BUDGET_OPTIONS_RULE = objectOf<RetryBudgetOptions>({
  ratio: numberIn(0, 1_000),
  successRatio: numberIn(0, 1_000),
  minRetriesPerSecond: numberIn(0, 1_000_000),
  burst: numberIn(0, 1_000_000),
  key: text(true),
});
