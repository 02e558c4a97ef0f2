import { ToolErrorType } from '../errors/tool-error-type.js';
import type { RetryOptions } from './retry-options.js';
import { either, func, integer, listOf, milliseconds, objectOf, oneOf } from '../options/option-rules.js';
import { BACKOFF_OPTIONS_RULE } from './backoff-options.rule.js';
import { RETRY_BUDGET_OPTIONS_RULE } from './retry-budget/retry-budget-options.rule.js';

const ERROR_TYPES = listOf(oneOf(Object.values(ToolErrorType)), { unique: true });

/** How {@link RetryOptions} are checked. @publicApi */
export const RETRY_OPTIONS_RULE = objectOf<RetryOptions>({
  maxRetries: integer(0),
  backoff: BACKOFF_OPTIONS_RULE,
  retryOn: either(
    ERROR_TYPES,
    func(),
    objectOf<{ types?: unknown; when?: unknown }>(
      { types: ERROR_TYPES, when: func() },
      'an object { types, when }',
    ),
  ),
  retryOnResult: func(),
  maxRetryAfterMs: milliseconds(),
  budgetMs: milliseconds({ positive: true, unlimited: true }),
  onRetry: func(),
  retryBudget: either(oneOf([false]), RETRY_BUDGET_OPTIONS_RULE),
});
