import type { RetryOptions } from '@toolshield/core';
import type { ApprovedCall } from '../approvals/tool-approval-options.interface.js';

/**
 * Per-call options of `ToolExecutor.execute()`.
 *
 * @publicApi
 */
export interface ExecuteOptions {
  /** Aborting it cancels the call: the tool's signal fires and the call ends `cancelled`. */
  readonly signal?: AbortSignal;
  /** Passed to the tool as `ToolCallContext.metadata` (conversation id, tenant, ...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** This call's per-attempt time limit, instead of the tool's; `false` for none. */
  readonly timeoutMs?: number | false;
  /**
   * Adjusts the tool's retry options for this call, or `false` to run it once. A tool that is
   * not retried (not declared idempotent) stays that way.
   */
  readonly retry?: RetryOptions | false;
  /**
   * The conversation (or run) the call belongs to. Model call ids repeat across conversations
   * (`call_3`), so the default idempotency key is `<conversationId>:<callId>`; `AgentRunner`
   * passes its run's. Also given to the module's `idempotencyKey` hook.
   */
  readonly conversationId?: string;
  /**
   * The call's `ToolCallContext.idempotencyKey`, the same for every attempt: pass one that
   * stays the same when the call is made again after a crash. Default: the module's
   * `idempotencyKey` hook's, else `<conversationId>:<callId>`, else (no conversation) a key
   * unique to this call (`defaultIdempotencyKey`).
   */
  readonly idempotencyKey?: string;
  /** This call's longest wait at the tool's rate limiter, instead of the limiter's. */
  readonly rateLimitMaxWaitMs?: number;
  /**
   * A person already approved this call in the framework's own pause (the AI SDK's or Agents
   * SDK's `needsApproval`, LangChain's human-in-the-loop middleware, MCP elicitation): a tool
   * with `needsApproval` runs without asking again.
   */
  readonly approved?: ApprovedCall;
}
