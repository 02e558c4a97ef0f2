import type { ToolErrorType } from '../errors/tool-error-type.js';
import { errorTypeOf, isRetryableError } from './error-traits.js';
import { resolveBackoff, type Backoff, type BackoffOptions } from './backoff.js';
import { assertOptions } from '../options/assert-options.js';
import { RETRY_OPTIONS_RULE } from '../options/rules/retry-options.rule.js';

/**
 * Decides whether an error may be retried.
 *
 * @param error the error the attempt failed with
 * @param attempt the attempt that failed (1 for the first call)
 * @publicApi
 */
export type RetryPredicate = (error: unknown, attempt: number) => boolean;

/**
 * Which errors are retried: a list of error types, a predicate, or both (then both must agree).
 *
 * @publicApi
 */
export type RetryOn =
  | readonly ToolErrorType[]
  | RetryPredicate
  | { readonly types?: readonly ToolErrorType[]; readonly when?: RetryPredicate };

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
}

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
