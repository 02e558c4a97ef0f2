import {
  ApprovalDeniedError,
  ApprovalExpiredError,
  ApprovalPendingError,
} from '../errors/approval.errors.js';
import { BulkheadFullError } from '../errors/bulkhead-full.error.js';
import { CancelledError } from '../errors/cancelled.error.js';
import { CircuitOpenError } from '../errors/circuit-open.error.js';
import { ConflictError } from '../errors/conflict.error.js';
import { InternalToolError } from '../errors/internal.error.js';
import { InvalidInputError, type InvalidInputErrorOptions } from '../errors/invalid-input.error.js';
import { InvalidOutputError } from '../errors/invalid-output.error.js';
import { LimitExceededError } from '../errors/limit-exceeded.error.js';
import { NetworkError } from '../errors/network.error.js';
import { NotFoundError } from '../errors/not-found.error.js';
import { PermissionDeniedError } from '../errors/permission-denied.error.js';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import type { ToolErrorType } from '../errors/tool-error-type.js';
import type { ToolError } from '../errors/tool-error.js';
import {
  ToolNotFoundError,
  type ToolNotFoundErrorOptions,
} from '../errors/tool-not-found.error.js';
import { UpstreamUnavailableError } from '../errors/upstream-unavailable.error.js';

/**
 * Options for {@link createToolError}: the common ones, plus the extras of the types that
 * carry them (`issues` for invalid_input, `availableTools`/`didYouMean` for tool_not_found;
 * ignored by the other types).
 *
 * @publicApi
 */
export type CreateToolErrorOptions = InvalidInputErrorOptions & ToolNotFoundErrorOptions;

type ToolErrorClass = new (message: string, options?: CreateToolErrorOptions) => ToolError;

const CLASSES: Readonly<Record<ToolErrorType, ToolErrorClass>> = {
  timeout: ToolTimeoutError,
  rate_limited: RateLimitedError,
  network: NetworkError,
  upstream_unavailable: UpstreamUnavailableError,
  circuit_open: CircuitOpenError,
  bulkhead_full: BulkheadFullError,
  invalid_input: InvalidInputError,
  tool_not_found: ToolNotFoundError,
  not_found: NotFoundError,
  permission_denied: PermissionDeniedError,
  conflict: ConflictError,
  cancelled: CancelledError,
  limit_exceeded: LimitExceededError,
  invalid_output: InvalidOutputError,
  internal: InternalToolError,
  approval_pending: ApprovalPendingError,
  approval_denied: ApprovalDeniedError,
  approval_expired: ApprovalExpiredError,
};

/**
 * Builds the {@link ToolError} subclass of a taxonomy member, for code that decides the type
 * at run time (classification rules, fault injection).
 *
 * @example
 * createToolError('rate_limited', 'Too many requests', { retryAfterMs: 2000 });
 *
 * @publicApi
 */
export function createToolError(
  type: ToolErrorType,
  message: string,
  options: CreateToolErrorOptions = {},
): ToolError {
  return new CLASSES[type](message, options);
}
