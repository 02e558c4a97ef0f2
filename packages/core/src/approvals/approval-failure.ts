import {
  type ApprovalError,
  ApprovalDeniedError,
  ApprovalExpiredError,
  ApprovalPendingError,
} from '../errors/approval.errors.js';
import {
  createToolFailure,
  type CreateToolFailureOptions,
} from '../results/create-tool-failure.js';
import { formatDelay } from '../results/format-delay.js';
import type { ToolFailure } from '../results/tool-outcome.js';
import { approvalRefOf, type ApprovalRecord } from './approval-record.js';

/** Which failure an approval ends a call in. @publicApi */
export type ApprovalFailureKind = 'pending' | 'denied' | 'expired';

/**
 * The {@link ToolFailure} of a call that did not run for want of approval, with the approval
 * on it (`failure.approval`): `pending` (it waits: do not call again, the result follows),
 * `denied` ("A person declined: <reason>. Do not call it again with these arguments."), or
 * `expired` (nobody decided within the approval's time). Texts go through the failure
 * sanitizer like every failure's (a denial's reason is redacted and capped).
 *
 * @example
 * approvalFailure('denied', record, { reason: 'over budget' });
 *
 * @publicApi
 */
export function approvalFailure(
  kind: ApprovalFailureKind,
  record: ApprovalRecord,
  options: ApprovalFailureOptions = {},
): ToolFailure {
  return approvalFailureWith(kind, record, options);
}

/** What {@link approvalFailure} may be told. @publicApi */
export interface ApprovalFailureOptions {
  /** The person's reason for a denial (redacted and capped like every failure text). */
  readonly reason?: string;
  /** How long the call took until it ended (default 0). */
  readonly durationMs?: number;
}

/** {@link approvalFailure} through a failure sanitizer of the caller's. @internal */
export function approvalFailureWith(
  kind: ApprovalFailureKind,
  record: ApprovalRecord,
  options: CreateToolFailureOptions & ApprovalFailureOptions = {},
): ToolFailure {
  return createToolFailure(
    approvalError(kind, record, options.reason),
    {
      tool: record.tool,
      callId: record.callId,
      durationMs: options.durationMs ?? 0,
      sideEffects: false,
      metadata: { approvalId: record.id },
    },
    options,
  );
}

/**
 * The error behind {@link approvalFailure}, for code that throws it inside a tool's pipeline
 * (the failure made from it carries the approval too).
 *
 * @publicApi
 */
export function approvalError(
  kind: ApprovalFailureKind,
  record: ApprovalRecord,
  reason?: string,
): ApprovalError {
  const options = { toolName: record.tool, captureStack: false, approval: approvalRefOf(record) };
  switch (kind) {
    case 'pending':
      return new ApprovalPendingError(
        `${record.tool} awaits a person's approval (id ${record.id}); it has not run. Do not call it again: the result follows when a person decides.`,
        options,
      );
    case 'denied':
      return new ApprovalDeniedError(declinedSentence(reason), options);
    case 'expired':
      return new ApprovalExpiredError(
        `Nobody approved the call within ${formatDelay(record.expiresAt - record.requestedAt)}, so it did not run.`,
        options,
      );
  }
}

/** "A person declined: <reason>. Do not call it again with these arguments." */
function declinedSentence(reason: string | undefined): string {
  return `A person declined: ${reasonSentence(reason)} Do not call it again with these arguments.`;
}

/**
 * The `approval_denied` failure of a call a person declined in a framework's own pause (the
 * Agents SDK's `state.reject`, LangChain's human-in-the-loop `reject`), where toolshield holds
 * no approval record: the same text as {@link approvalFailure}'s denial.
 *
 * @internal
 */
export function declinedFailure(
  call: { readonly tool: string; readonly callId: string },
  reason?: string,
): ToolFailure {
  return createToolFailure(
    new ApprovalDeniedError(declinedSentence(reason), { toolName: call.tool, captureStack: false }),
    { tool: call.tool, callId: call.callId, durationMs: 0, sideEffects: false },
  );
}

/** Most characters of a reason the model reads, so the instruction after it is never cut. */
const MAX_REASON_LENGTH = 100;

function reasonSentence(reason: string | undefined): string {
  const whole = reason?.trim().replace(/\s+/g, ' ') ?? '';
  const text =
    whole.length > MAX_REASON_LENGTH ? `${whole.slice(0, MAX_REASON_LENGTH - 1)}…` : whole;
  if (text === '') return 'no reason given.';
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
