import type { ConversationMessage } from './conversation-message.js';
import { toolArgumentsAsJson } from './tool-call-arguments.js';

/** An assistant `tool_calls` entry in the Chat Completions format. @publicApi */
export interface OpenAIToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * The subset of Chat Completions request messages toolshield produces; assignable to the
 * `openai` SDK's `ChatCompletionMessageParam`.
 *
 * @publicApi
 */
export type OpenAIChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: OpenAIToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

function toOpenAIMessage(message: ConversationMessage): OpenAIChatMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: toolArgumentsAsJson(call.arguments) },
        })),
      };
    }
  }
}

/**
 * Maps neutral messages one to one onto Chat Completions messages. It does not reorder or
 * repair anything: run `ToolCallLedger.repair()` first, and `validateOpenAIHistory` to check.
 * Failures travel in the tool message's content (Chat Completions has no error flag).
 *
 * @publicApi
 */
export function toOpenAIMessages(messages: readonly ConversationMessage[]): OpenAIChatMessage[] {
  return messages.map(toOpenAIMessage);
}
