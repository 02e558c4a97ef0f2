import { ToolError } from './tool-error.js';

/**
 * The call needs a person's approval and did not run: it waits under an approval id
 * (`ToolFailure.approval`). The model is told not to call it again; the result follows when a
 * person decides.
 *
 * @publicApi
 */
export class ApprovalPendingError extends ToolError {
  readonly type = 'approval_pending' as const;
}

/**
 * A person declined the call; it did not run. Not retryable, and the model is told not to
 * call it again with these arguments.
 *
 * @publicApi
 */
export class ApprovalDeniedError extends ToolError {
  readonly type = 'approval_denied' as const;
}

/**
 * Nobody decided on the call's approval in time; it did not run.
 *
 * @publicApi
 */
export class ApprovalExpiredError extends ToolError {
  readonly type = 'approval_expired' as const;
}
