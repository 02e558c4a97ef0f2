/**
 * Type tests: every rendering and conversion of core is assignable, with no cast, to the
 * parameter types of the official SDKs (compiled by `tsc` in the `typecheck` target; nothing
 * here runs). Each `@ts-expect-error` proves that a wrong shape is still caught.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CallToolResult, Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import { jsonSchema } from 'ai';
import type OpenAI from 'openai';
import {
  toAnthropicMessages,
  toAnthropicTool,
  toAnthropicToolResult,
  toOpenAIFunctionTool,
  toOpenAIMessages,
  toOpenAIStrictFunctionTool,
  toOpenAIToolMessage,
  type ConversationMessage,
} from '../../src/agent.js';
import { createToolResult, type ToolDefinition } from '../../src/index.js';
import { toMcpCallToolResult, toMcpTool } from '../../src/internal.js';

declare const history: readonly ConversationMessage[];
declare const definition: ToolDefinition;
const outcome = createToolResult(
  { tempC: 21 },
  { tool: 'get_weather', callId: 'call_1', durationMs: 1 },
);

// OpenAI Chat Completions
export const openAIMessages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] =
  toOpenAIMessages(history);
export const openAIToolMessage: OpenAI.Chat.Completions.ChatCompletionToolMessageParam =
  toOpenAIToolMessage(outcome);
export const openAIMessage: OpenAI.Chat.Completions.ChatCompletionMessageParam =
  toOpenAIToolMessage(outcome);
export const openAITool: OpenAI.Chat.Completions.ChatCompletionFunctionTool =
  toOpenAIFunctionTool(definition);
export const openAITools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  toOpenAIFunctionTool(definition),
  toOpenAIStrictFunctionTool(definition),
];
export const openAIRequest: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-5',
  messages: [...toOpenAIMessages(history), toOpenAIToolMessage(outcome)],
  tools: [toOpenAIStrictFunctionTool(definition)],
};

// Anthropic Messages
export const anthropicMessages: Anthropic.MessageParam[] = toAnthropicMessages(history).messages;
export const anthropicSystem: string | undefined = toAnthropicMessages(history).system;
export const anthropicToolResult: Anthropic.ToolResultBlockParam = toAnthropicToolResult(outcome);
export const anthropicBlock: Anthropic.ContentBlockParam = toAnthropicToolResult(outcome);
export const anthropicTool: Anthropic.Tool = toAnthropicTool(definition);
export const anthropicRequest: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  ...toAnthropicMessages(history),
  tools: [toAnthropicTool(definition)],
};

// MCP
export const mcpResult: CallToolResult = toMcpCallToolResult(outcome);
export const mcpTool: McpSdkTool = toMcpTool(definition);

// Vercel AI SDK: a definition's schema goes straight into jsonSchema()
export const aiSchema = jsonSchema(definition.inputSchema);

// Wrong shapes are still refused.
// @ts-expect-error a tool message is not an assistant message
export const notAssistant: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam =
  toOpenAIToolMessage(outcome);
// @ts-expect-error a tool result block is not a tool_use block
export const notToolUse: Anthropic.ToolUseBlockParam = toAnthropicToolResult(outcome);
// @ts-expect-error the Anthropic conversation is not its messages array
export const notMessages: Anthropic.MessageParam[] = toAnthropicMessages(history);
// @ts-expect-error an MCP tool is not an Anthropic tool (inputSchema, not input_schema)
export const notAnthropicTool: Anthropic.Tool = toMcpTool(definition);
// @ts-expect-error a CallToolResult is not a tool definition
export const notMcpTool: McpSdkTool = toMcpCallToolResult(outcome);
// @ts-expect-error OpenAI messages are not Anthropic messages
export const notAnthropic: Anthropic.MessageParam[] = toOpenAIMessages(history);
