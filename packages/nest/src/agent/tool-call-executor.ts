import type { ToolCallRequest } from '@toolshield/core';
import type { ToolCallExecutor } from '@toolshield/core/agent';
import type { ExecuteOptions } from '../execution/execute-options.interface.js';
import type { ToolExecutor } from '../execution/tool-executor.service.js';

/** Per-call options the agent helpers pass to `ToolExecutor.execute()`; the batch owns `signal`. @publicApi */
export type AgentExecuteOptions = Omit<ExecuteOptions, 'signal'>;

/**
 * Builds the execute options of each call a runner makes, from the call and the run's
 * conversation (metadata per conversation, your own idempotency key).
 *
 * @publicApi
 */
export type AgentExecuteOptionsFactory = (
  call: ToolCallRequest,
  run: { readonly conversationId?: string },
) => AgentExecuteOptions;

/**
 * The core helpers' view of `executor`: every call gets `options` (or what the factory builds
 * for it) plus the batch's signal and the run's conversation (which `options` may override).
 */
export function toolCallExecutor(
  executor: ToolExecutor,
  options: AgentExecuteOptions | AgentExecuteOptionsFactory = {},
): ToolCallExecutor {
  if (typeof options === 'function') {
    return (call, { signal, conversationId }) =>
      executor.execute(call, { conversationId, ...options(call, { conversationId }), signal });
  }
  return (call, { signal, conversationId }) =>
    executor.execute(call, { conversationId, ...options, signal });
}
