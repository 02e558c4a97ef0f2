import type { ToolApprovalRef } from '../approvals/approval-record.js';
import { ToolError, type ToolErrorOptions } from './tool-error.js';

/** Options of the approval errors: the approval the call waits for, or waited for. @publicApi */
export interface ApprovalErrorOptions extends ToolErrorOptions {
  /** Put on the failure as `ToolFailure.approval`. */
  readonly approval?: ToolApprovalRef;
}

/** Base of the three approval errors: they carry the approval. @publicApi */
export abstract class ApprovalError extends ToolError {
  readonly approval?: ToolApprovalRef;

  constructor(message: string, options: ApprovalErrorOptions = {}) {
    super(message, options);
    this.approval = options.approval;
  }
}

/**
 * The call needs a person's approval and did not run: it waits under an approval id
 * (`ToolFailure.approval`). The model is told not to call it again; the result follows when a
 * person decides.
 *
 * @publicApi
 */
export class ApprovalPendingError extends ApprovalError {
  readonly type = 'approval_pending' as const;
}

/**
 * A person declined the call; it did not run. Not retryable, and the model is told not to
 * call it again with these arguments.
 *
 * @publicApi
 */
export class ApprovalDeniedError extends ApprovalError {
  readonly type = 'approval_denied' as const;
}

/**
 * Nobody decided on the call's approval in time; it did not run.
 *
 * @publicApi
 */
export class ApprovalExpiredError extends ApprovalError {
  readonly type = 'approval_expired' as const;
}
