import type { ToolOutcome } from '../results/tool-outcome.js';
import { outcomeContent, type OutcomeRenderOptions } from './outcome-content.js';
import type { JsonObjectSchema, ToolDefinition } from './tool-definition.js';

/**
 * An OpenAI Chat Completions `tool` message answering one tool call.
 *
 * @publicApi
 */
export interface OpenAIToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * An OpenAI Chat Completions function tool.
 *
 * @publicApi
 */
export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonObjectSchema;
  };
}

/**
 * The outcome as the `tool` message that answers `tool_call_id` (OpenAI has no error flag:
 * a failure is told in the content).
 *
 * @publicApi
 */
export function toOpenAIToolMessage(
  outcome: ToolOutcome,
  options?: OutcomeRenderOptions,
): OpenAIToolMessage {
  return { role: 'tool', tool_call_id: outcome.callId, content: outcomeContent(outcome, options) };
}

/** The definition as an OpenAI function tool. @publicApi */
export function toOpenAIFunctionTool(definition: ToolDefinition): OpenAIFunctionTool {
  return {
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: definition.inputSchema,
    },
  };
}
