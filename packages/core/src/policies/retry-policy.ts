import type { ToolErrorType } from '../errors/tool-error-type.js';
import { errorTypeOf, isRetryableError } from './error-traits.js';
import { resolveBackoff, type Backoff } from './backoff.js';
import { assertOptions } from '../options/assert-options.js';
import { RETRY_OPTIONS_RULE } from './retry-options.rule.js';
import type { RetryInfo, RetryOn, RetryOptions, RetryPredicate } from './retry-options.js';
import {
  resolveRetryBudget,
  type RetryBudgetSettings,
} from './retry-budget/retry-budget-options.js';

export type { RetryInfo, RetryOn, RetryOptions, RetryPredicate } from './retry-options.js';

/**
 * {@link RetryOptions} resolved once, with every default applied. Build it with
 * {@link resolveRetryPolicy} and reuse it across calls.
 *
 * @publicApi
 */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly backoff: Backoff;
  readonly isRetryable: (error: unknown, attempt: number) => boolean;
  readonly retryOnResult?: (result: unknown) => boolean;
  readonly maxRetryAfterMs: number;
  readonly budgetMs: number;
  readonly onRetry?: (info: RetryInfo) => void;
  /** The retry budget's settings; undefined when it is off. */
  readonly retryBudget?: RetryBudgetSettings;
}

/** @publicApi */
export const DEFAULT_MAX_RETRIES = 2;
/** @publicApi */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Applies the defaults to {@link RetryOptions}. @publicApi */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  assertOptions(RETRY_OPTIONS_RULE, options, 'RetryOptions');
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES)),
    backoff: resolveBackoff(options.backoff),
    isRetryable: retryPredicate(options.retryOn),
    retryOnResult: options.retryOnResult,
    maxRetryAfterMs: Math.max(0, options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS),
    budgetMs: options.budgetMs ?? Number.POSITIVE_INFINITY,
    onRetry: options.onRetry,
    retryBudget:
      options.retryBudget === false ? undefined : resolveRetryBudget(options.retryBudget),
  };
}

/** Resolves options, or passes an already resolved policy through. @publicApi */
export function toRetryPolicy(options: RetryOptions | RetryPolicy): RetryPolicy {
  return 'isRetryable' in options ? options : resolveRetryPolicy(options);
}

function retryPredicate(retryOn: RetryOn | undefined): RetryPredicate {
  if (retryOn === undefined) return isRetryableError;
  if (typeof retryOn === 'function') return retryOn;
  if (isTypeList(retryOn)) return byTypes(retryOn);
  const byType = retryOn.types === undefined ? isRetryableError : byTypes(retryOn.types);
  const when = retryOn.when;
  return when === undefined
    ? byType
    : (error, attempt) => byType(error, attempt) && when(error, attempt);
}

function isTypeList(retryOn: RetryOn): retryOn is readonly ToolErrorType[] {
  return Array.isArray(retryOn);
}

function byTypes(types: readonly ToolErrorType[]): RetryPredicate {
  return (error) => types.includes(errorTypeOf(error));
}
