import { parseToolArguments } from '../../arguments/parse-tool-arguments.js';
import { createToolResult, type ToolCallRequest } from '../../results/index.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type { ChatModelTool } from './chat-model.js';

/**
 * The completion tool `AgentRunner` offers when the app's tools have none of that name: the
 * model calls it to STOP, with the answer the user reads.
 *
 * @publicApi
 */
export function completionToolDefinition(name: string): ChatModelTool {
  return {
    name,
    description:
      'Ends the run. Call it when the task is done, or to STOP after failures, with the answer for the user: what you found and what failed.',
    parameters: {
      type: 'object',
      properties: { answer: { type: 'string', description: 'The final answer for the user.' } },
      required: ['answer'],
    },
  };
}

/** The answer a completion call carries: its `answer` argument, or '' when it has none. */
function answerOf(call: ToolCallRequest): string {
  try {
    const { answer } = parseToolArguments(call.arguments);
    return typeof answer === 'string' ? answer : '';
  } catch {
    return ''; // a STOP with unreadable arguments still stops; the reply's text answers
  }
}

/**
 * `executor`, with calls of the runner's own completion tool answered by the runner: a
 * success whose output is the call's answer, so the run ends with it. Never rejects for them.
 */
export function answeringCompletion(name: string, executor: ToolCallExecutor): ToolCallExecutor {
  return async (call, options) => {
    if (call.name !== name) return executor(call, options);
    return createToolResult(answerOf(call), { tool: name, callId: call.id ?? '', durationMs: 0 });
  };
}
