import type { ToolOutcome } from '../results/tool-outcome.js';
import { outcomeContent, type OutcomeRenderOptions } from './outcome-content.js';
import type { JsonObjectSchema, ToolDefinition } from './tool-definition.js';

/**
 * An Anthropic Messages `tool_result` content block answering one `tool_use`; assignable to
 * the `@anthropic-ai/sdk` `ToolResultBlockParam`.
 *
 * @publicApi
 */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  /** Present, and true, on failures. */
  readonly is_error?: true;
}

/**
 * An Anthropic Messages tool definition; assignable to the `@anthropic-ai/sdk` `Tool`.
 *
 * @publicApi
 */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonObjectSchema;
}

/** The outcome as a `tool_result` block, with `is_error: true` on failures. @publicApi */
export function toAnthropicToolResult(
  outcome: ToolOutcome,
  options?: OutcomeRenderOptions,
): AnthropicToolResultBlock {
  return {
    type: 'tool_result',
    tool_use_id: outcome.callId,
    content: outcomeContent(outcome, options),
    ...(outcome.success ? {} : { is_error: true as const }),
  };
}

/** The definition as an Anthropic tool. @publicApi */
export function toAnthropicTool(definition: ToolDefinition): AnthropicTool {
  return {
    name: definition.name,
    description: definition.description,
    input_schema: definition.inputSchema,
  };
}
