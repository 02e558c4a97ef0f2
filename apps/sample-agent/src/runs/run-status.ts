import type { AgentRunResult } from '@toolshield/core/agent';
import type { RunCompletion } from './run-record.js';

/**
 * How a finished agent run is reported: the runner's `error` is `failed`; a run the model
 * ended by saying STOP (through its completion tool, as the decision prompt asks) is
 * `stopped` with the model's explanation; the rest keep the runner's status.
 */
export function runCompletion(result: AgentRunResult, finishedAt: Date): RunCompletion {
  const base = { finishedAt: finishedAt.toISOString(), finalAnswer: result.finalAnswer };
  if (result.status === 'error') return { ...base, status: 'failed', reason: result.reason };
  const lastAssistant = result.messages.findLast((message) => message.role === 'assistant');
  const said = lastAssistant?.content.trim() ?? '';
  if (result.status === 'completed' && /^STOP\b/.test(said)) {
    return {
      ...base,
      status: 'stopped',
      reason: { code: result.reason.code, tool: result.reason.tool, message: said },
    };
  }
  return { ...base, status: result.status, reason: result.reason };
}
