import type { ToolCallExecutor } from '@toolshield/core';
import type { ExecuteOptions } from '../execution/execute-options.interface.js';
import type { ToolExecutor } from '../execution/tool-executor.service.js';

/** Per-call options the agent helpers pass to `ToolExecutor.execute()`; the batch owns `signal`. @publicApi */
export type AgentExecuteOptions = Omit<ExecuteOptions, 'signal'>;

/** The core helpers' view of `executor`: every call gets `options` plus the batch's signal. */
export function toolCallExecutor(
  executor: ToolExecutor,
  options: AgentExecuteOptions = {},
): ToolCallExecutor {
  return (call, { signal }) => executor.execute(call, { ...options, signal });
}
