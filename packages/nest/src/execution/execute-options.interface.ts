import type { RetryOptions } from '@toolshield/core';

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
   * not retried (neither idempotent nor `@Retryable`) stays that way.
   */
  readonly retry?: RetryOptions | false;
  /**
   * The call's `ToolCallContext.idempotencyKey`, the same for every attempt: pass one that
   * stays the same when the call is made again after a crash (the conversation or run id and
   * the call id). Default: the call id.
   */
  readonly idempotencyKey?: string;
  /** This call's longest wait at the tool's rate limiter, instead of the limiter's. */
  readonly rateLimitMaxWaitMs?: number;
}
