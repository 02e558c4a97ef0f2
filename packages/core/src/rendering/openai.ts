import type { ToolOutcome } from '../results/tool-outcome.js';
import { outcomeContent, type OutcomeRenderOptions } from './outcome-content.js';
import { toOpenAIStrictSchema } from './openai-strict-schema.js';
import type { JsonObjectSchema, ToolDefinition } from './tool-definition.js';

/**
 * An OpenAI Chat Completions `tool` message answering one tool call; assignable to the
 * `openai` SDK's `ChatCompletionToolMessageParam`.
 *
 * @publicApi
 */
export interface OpenAIToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * An OpenAI Chat Completions function tool; assignable to the `openai` SDK's
 * `ChatCompletionFunctionTool`.
 *
 * @publicApi
 */
export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonObjectSchema;
    /** Present, and true, on the strict-mode export. */
    readonly strict?: true;
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

/**
 * The definition as an OpenAI function tool in strict mode (`strict: true`): the model's
 * arguments then always match the schema, which {@link toOpenAIStrictSchema} rewrites into the
 * form strict mode requires (every property required, optional ones nullable,
 * `additionalProperties: false` at every level). The model sends `null` for an optional
 * property it would have left out; `@toolshield/nest`'s validation accepts that `null` for an
 * `@IsOptional()` property.
 *
 * @example
 * await openai.chat.completions.create({ model, messages, tools: definitions.map(toOpenAIStrictFunctionTool) });
 *
 * @publicApi
 */
export function toOpenAIStrictFunctionTool(definition: ToolDefinition): OpenAIFunctionTool {
  return {
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: toOpenAIStrictSchema(definition.inputSchema),
      strict: true,
    },
  };
}
