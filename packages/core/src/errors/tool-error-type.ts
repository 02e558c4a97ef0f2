/**
 * The closed set of failure kinds every tool error is mapped to.
 *
 * @publicApi
 */
export const ToolErrorType = {
  Timeout: 'timeout',
  RateLimited: 'rate_limited',
  Network: 'network',
  UpstreamUnavailable: 'upstream_unavailable',
  CircuitOpen: 'circuit_open',
  BulkheadFull: 'bulkhead_full',
  InvalidInput: 'invalid_input',
  ToolNotFound: 'tool_not_found',
  NotFound: 'not_found',
  PermissionDenied: 'permission_denied',
  Conflict: 'conflict',
  Cancelled: 'cancelled',
  LimitExceeded: 'limit_exceeded',
  InvalidOutput: 'invalid_output',
  Internal: 'internal',
  ApprovalPending: 'approval_pending',
  ApprovalDenied: 'approval_denied',
  ApprovalExpired: 'approval_expired',
} as const;

/** @publicApi */
export type ToolErrorType = (typeof ToolErrorType)[keyof typeof ToolErrorType];

/**
 * What each error type means for the policies.
 *
 * - `retryable`: an automatic retry (the same call, the same idempotency key) may succeed, for
 *   tools that allow retries.
 * - `recoverable`: calling the tool again can succeed: the same call after waiting
 *   (circuit_open is recoverable but not retryable now), or a corrected one (invalid_input's
 *   fixed arguments, tool_not_found's right name). `false`: do not call it again for this; do
 *   something else or ask the user. A failure of a tool with side effects that may have taken
 *   effect is never recoverable (`ToolFailure.effect`).
 * - `breakerFailure`: counts as a failure for the circuit breaker; the others are neutral
 *   (neither failure nor success).
 *
 * @publicApi
 */
export interface ToolErrorTypeTraits {
  readonly retryable: boolean;
  readonly recoverable: boolean;
  readonly breakerFailure: boolean;
}

const traits = (retryable: boolean, recoverable: boolean, breakerFailure: boolean) =>
  Object.freeze({ retryable, recoverable, breakerFailure });

/** @publicApi */
export const TOOL_ERROR_TYPE_TRAITS: Readonly<Record<ToolErrorType, ToolErrorTypeTraits>> =
  Object.freeze({
    timeout: traits(true, true, true),
    rate_limited: traits(true, true, true),
    network: traits(true, true, true),
    upstream_unavailable: traits(true, true, true),
    circuit_open: traits(false, true, false),
    bulkhead_full: traits(true, true, false),
    invalid_input: traits(false, true, false),
    tool_not_found: traits(false, true, false),
    not_found: traits(false, false, false),
    permission_denied: traits(false, false, false),
    conflict: traits(false, false, false),
    cancelled: traits(false, false, false),
    limit_exceeded: traits(false, false, false),
    invalid_output: traits(false, false, true),
    internal: traits(false, false, true),
    approval_pending: traits(false, false, false),
    approval_denied: traits(false, false, false),
    approval_expired: traits(false, false, false),
  });

/** Every member of the taxonomy, in declaration order. @publicApi */
export const TOOL_ERROR_TYPES: readonly ToolErrorType[] = Object.freeze(
  Object.values(ToolErrorType),
);

/** Whether `value` names a member of the taxonomy. @publicApi */
export function isToolErrorType(value: unknown): value is ToolErrorType {
  return typeof value === 'string' && Object.hasOwn(TOOL_ERROR_TYPE_TRAITS, value);
}
