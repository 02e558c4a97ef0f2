import { anthropicToolUseIds } from './anthropic-tool-use-ids.js';
import type { ConversationMessage } from './conversation-message.js';
import { toolArgumentsAsObject } from './tool-call-arguments.js';

/** The subset of Anthropic Messages content blocks toolshield produces. @publicApi */
export type AnthropicContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
    }
  | {
      readonly type: 'tool_result';
      readonly tool_use_id: string;
      readonly content: string;
      readonly is_error?: boolean;
    };

/**
 * An Anthropic Messages API message; assignable to the `@anthropic-ai/sdk` `MessageParam`.
 *
 * @publicApi
 */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | AnthropicContentBlock[];
}

/** The `system` and `messages` parameters of an Anthropic Messages request. @publicApi */
export interface AnthropicConversation {
  readonly system?: string;
  readonly messages: AnthropicMessage[];
}

type IdMap = ReadonlyMap<string, string>;

function blocksOf(message: ConversationMessage, ids: IdMap): AnthropicContentBlock[] {
  const text: AnthropicContentBlock[] =
    message.role !== 'tool' && message.content !== ''
      ? [{ type: 'text', text: message.content }]
      : [];
  switch (message.role) {
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: ids.get(message.toolCallId) ?? message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        },
      ];
    case 'assistant':
      return [
        ...text,
        ...(message.toolCalls ?? []).map((call): AnthropicContentBlock => ({
          type: 'tool_use',
          id: ids.get(call.id) ?? call.id,
          name: call.name,
          input: toolArgumentsAsObject(call.arguments),
        })),
      ];
    default:
      return text;
  }
}

/**
 * Maps neutral messages onto an Anthropic Messages request: system messages are joined into
 * the top-level `system` parameter; tool results become `tool_result` blocks (with `is_error`)
 * of a user message; consecutive messages of the same role are merged into one turn, as the
 * API itself does; empty text is left out. A tool call id Anthropic refuses (it accepts
 * `^[a-zA-Z0-9_-]+$`; OpenAI-compatible models emit ids such as `functions.lookup:0`) is
 * rewritten the same way in the call and in its result, deterministically and without ever
 * merging two ids (`functions_lookup_0_` and a digest of the original id); valid ids are
 * kept. It does not reorder or repair anything: run `ToolCallLedger.repair()` first, and
 * `validateAnthropicHistory` to check.
 *
 * @publicApi
 */
export function toAnthropicMessages(
  messages: readonly ConversationMessage[],
): AnthropicConversation {
  const system = messages.flatMap((message) =>
    message.role === 'system' ? [message.content] : [],
  );
  const ids = anthropicToolUseIds(messages.flatMap(toolCallIdsOf));
  const turns: { role: 'user' | 'assistant'; content: AnthropicContentBlock[] }[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const blocks = blocksOf(message, ids);
    if (blocks.length === 0) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: turns };
}

function toolCallIdsOf(message: ConversationMessage): string[] {
  if (message.role === 'tool') return [message.toolCallId];
  if (message.role === 'assistant') return (message.toolCalls ?? []).map((call) => call.id);
  return [];
}
