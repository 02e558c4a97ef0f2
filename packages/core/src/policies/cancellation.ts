import { CancelledError } from '../errors/cancelled.error.js';
import { isToolError, type ToolError } from '../errors/tool-error.js';

/**
 * The error a call ends with when its caller aborts: the abort reason when it already is a
 * `ToolError` (an outer deadline, say), otherwise a `CancelledError` caused by it.
 *
 * @publicApi
 */
export function cancellationError(reason: unknown): ToolError {
  return isToolError(reason)
    ? reason
    : new CancelledError('The caller cancelled the call', { cause: reason, captureStack: false });
}
