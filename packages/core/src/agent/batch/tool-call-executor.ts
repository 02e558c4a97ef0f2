import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';

/**
 * What a {@link ToolCallExecutor} gets besides the call. `ToolExecutor.execute` from
 * `@toolshield/nest` takes both as they are.
 *
 * @publicApi
 */
export interface ToolCallExecutorOptions {
  /** Aborting it cancels the call. */
  readonly signal?: AbortSignal;
  /**
   * The conversation (or run) the call belongs to, which `AgentRunner` passes on every call:
   * model call ids (`call_3`) repeat across conversations, so idempotency keys are scoped by it.
   */
  readonly conversationId?: string;
}

/**
 * Runs one tool call to its outcome; `ToolExecutor.execute` from `@toolshield/nest` fits.
 * It should never reject; the batch runner turns a rejection into an `internal` failure.
 *
 * @publicApi
 */
export type ToolCallExecutor = (
  call: ToolCallRequest,
  options: ToolCallExecutorOptions,
) => Promise<ToolOutcome>;
