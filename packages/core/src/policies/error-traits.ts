import { TOOL_ERROR_TYPE_TRAITS, type ToolErrorType } from '../errors/tool-error-type.js';
import { isToolError } from '../errors/tool-error.js';

/**
 * The taxonomy type of anything thrown: a `ToolError`'s own type, `internal` for the rest
 * (the classifier runs outside the policies; unclassified errors are treated as bugs).
 *
 * @publicApi
 */
export function errorTypeOf(error: unknown): ToolErrorType {
  return isToolError(error) ? error.type : 'internal';
}

/**
 * Whether an automatic retry may succeed: the type's `retryable` trait, or the error's own
 * override.
 *
 * @publicApi
 */
export function isRetryableError(error: unknown): boolean {
  return isToolError(error) && error.retryable;
}

/**
 * Whether a circuit breaker counts the error as a failure (trait `breakerFailure`); the other
 * errors are neutral, counting neither as failure nor as success.
 *
 * @publicApi
 */
export function isBreakerFailure(error: unknown): boolean {
  return TOOL_ERROR_TYPE_TRAITS[errorTypeOf(error)].breakerFailure;
}
