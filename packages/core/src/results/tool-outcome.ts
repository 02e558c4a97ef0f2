import type { ToolApprovalRef } from '../approvals/approval-record.js';
import type { ToolErrorType } from '../errors/tool-error-type.js';
import type { ValidationIssue } from '../errors/tool-error.js';

/**
 * Facts about how a call went, shared by results and failures.
 *
 * @publicApi
 */
export interface ToolCallMetadata {
  /** Attempts made, the first included (`retryCount + 1` for failures). */
  readonly attempts: number;
  /** Wall (or virtual) time from start to result, in ms. */
  readonly durationMs: number;
  /** Anything else worth knowing: status code, url, error code, `chaos: true`, ... */
  readonly [key: string]: unknown;
}

/**
 * A successful tool call.
 *
 * @publicApi
 */
export interface ToolResult<TOutput = unknown> {
  readonly success: true;
  readonly tool: string;
  readonly callId: string;
  readonly output: TOutput;
  readonly metadata: ToolCallMetadata;
}

/**
 * A failed tool call, shaped for the model to act on.
 *
 * @publicApi
 */
export interface ToolFailure {
  readonly success: false;
  readonly tool: string;
  readonly callId: string;
  /** One sentence for the model: no stack, secrets redacted. */
  readonly error: string;
  readonly errorType: ToolErrorType;
  /**
   * Whether calling the tool again can succeed: the same call after waiting (`retryAfterMs`
   * when given), or a corrected one (fixed arguments, the suggested name). `false`: do not
   * call it again for this; do something else (another tool, check the state) or ask the user.
   * Always `false` when {@link ToolFailure.effect} is `'unknown'`, unless the tool's own
   * error says otherwise.
   */
  readonly recoverable: boolean;
  /**
   * `'unknown'` when the call failed after its request may have reached the upstream (an
   * attempt timeout, a connection dropped after sending, a cancellation or shutdown while it
   * ran, a gateway timeout) and the tool has side effects (it is neither idempotent nor
   * read-only): the effect may have happened. The model is told to check the state with a
   * read tool or ask the user, never to repeat the call; `metadata.idempotencyKey` is the
   * call's key, so that a deliberate repeat with it (`execute(request, { idempotencyKey })`)
   * takes effect at most once at an upstream that honours it. Absent otherwise.
   */
  readonly effect?: 'unknown';
  /** Retries performed after the first attempt. */
  readonly retryCount: number;
  /** Retries allowed after the first attempt (attempts allowed = retryMax + 1). */
  readonly retryMax: number;
  /** When trying again may succeed, in ms from when the failure was produced. */
  readonly retryAfterMs?: number;
  /** Field-level validation problems (`invalid_input`). */
  readonly issues?: readonly ValidationIssue[];
  /** The registered tool names (`tool_not_found`). */
  readonly availableTools?: readonly string[];
  /** The closest registered names, best first (`tool_not_found`). */
  readonly didYouMean?: readonly string[];
  /** Short next steps for the model, by error type. */
  readonly suggestions: readonly string[];
  /**
   * The approval the call waits for (`approval_pending`), or waited for (`approval_denied`,
   * `approval_expired`): its id for `resolveApproval`, the redacted arguments to show, the
   * expiry and the call's idempotency key.
   */
  readonly approval?: ToolApprovalRef;
  readonly metadata: ToolCallMetadata;
}

/**
 * What every tool call ends in: exactly one of these.
 *
 * @publicApi
 */
export type ToolOutcome<TOutput = unknown> = ToolResult<TOutput> | ToolFailure;

/** Narrows an outcome to a failure. @publicApi */
export function isToolFailure(outcome: ToolOutcome): outcome is ToolFailure {
  return outcome.success === false;
}
