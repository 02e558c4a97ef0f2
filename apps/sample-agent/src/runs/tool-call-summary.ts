import type { ToolErrorType } from '@toolshield/core';
import type { ConversationMessage } from '@toolshield/core/agent';
import type { RunEvent } from './run-event.js';

/** One retry of a call: the attempt that will run, after how long, because of what. */
export interface RetrySummary {
  readonly attempt: number;
  readonly delayMs: number;
  readonly errorType: ToolErrorType;
}

/** A tool call of a run with its outcome, as `GET /api/runs/:id` lists it. */
export interface ToolCallSummary {
  readonly callId: string;
  readonly tool: string;
  readonly arguments: string;
  /**
   * `interrupted`: a crash cut it off; the runner answered it when the run resumed.
   * `awaiting_approval`: it waits for a person's decision (approved, it runs again under its id).
   */
  readonly status: 'running' | 'awaiting_approval' | 'succeeded' | 'failed' | 'interrupted';
  readonly attempts: number;
  readonly retries: readonly RetrySummary[];
  /** For failed calls: the failure's type and message. */
  readonly errorType?: ToolErrorType;
  readonly error?: string;
  /** For successful calls: the output. */
  readonly output?: unknown;
  /** The tool result as the model read it. */
  readonly modelSaw?: string;
  readonly durationMs?: number;
}

interface Draft {
  callId: string;
  tool: string;
  arguments: string;
  status: ToolCallSummary['status'];
  attempts: number;
  retries: RetrySummary[];
  startedAt?: number;
  errorType?: ToolErrorType;
  error?: string;
  output?: unknown;
  modelSaw?: string;
  durationMs?: number;
}

/** Every tool call of a run, in the order requested, from its events and its history. */
export function summariseToolCalls(
  events: readonly RunEvent[],
  messages: readonly ConversationMessage[] = [],
): ToolCallSummary[] {
  const calls = new Map<string, Draft>();
  for (const { data } of events) {
    if (data.type === 'tool.requested') {
      calls.set(data.callId, {
        callId: data.callId,
        tool: data.tool,
        arguments: data.arguments,
        status: 'running',
        attempts: 0,
        retries: [],
      });
      continue;
    }
    if (!('callId' in data)) continue;
    const call = calls.get(data.callId);
    if (!call) continue;
    switch (data.type) {
      case 'call.started':
        call.startedAt = data.at;
        call.attempts = 1;
        break;
      case 'retry.scheduled':
        call.retries.push({
          attempt: data.attempt,
          delayMs: data.delayMs,
          errorType: data.errorType,
        });
        call.attempts = data.attempt;
        break;
      case 'call.succeeded':
        call.status = 'succeeded';
        call.output = data.result.output;
        call.durationMs = call.startedAt === undefined ? undefined : data.at - call.startedAt;
        break;
      case 'call.failed':
        call.status =
          data.failure.errorType === 'approval_pending' ? 'awaiting_approval' : 'failed';
        call.errorType = data.failure.errorType;
        call.error = data.failure.error;
        call.durationMs = call.startedAt === undefined ? undefined : data.at - call.startedAt;
        break;
      case 'approval.denied':
      case 'approval.expired':
        call.status = 'failed';
        call.errorType = data.type === 'approval.denied' ? 'approval_denied' : 'approval_expired';
        call.error =
          data.type === 'approval.denied'
            ? `A person declined${data.reason ? `: ${data.reason}` : ''}.`
            : 'Nobody approved it in time.';
        break;
    }
  }
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const call = calls.get(message.toolCallId);
    if (!call) continue;
    call.modelSaw = message.content;
    if (call.status === 'running') call.status = 'interrupted';
  }
  return [...calls.values()].map(({ startedAt: _startedAt, ...call }) => call);
}
