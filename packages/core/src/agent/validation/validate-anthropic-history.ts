import type {
  AnthropicContentBlock,
  AnthropicMessage,
} from '../conversation/anthropic-messages.js';
import { isAnthropicToolUseId } from '../conversation/anthropic-tool-use-ids.js';
import type { HistoryViolation } from './history-violation.js';

function blocksOf(message: AnthropicMessage): readonly AnthropicContentBlock[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

function toolUseIds(message: AnthropicMessage | undefined): string[] {
  if (message?.role !== 'assistant') return [];
  return blocksOf(message).flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

function toolCallIdOf(block: AnthropicContentBlock): string | undefined {
  if (block.type === 'tool_use') return block.id;
  return block.type === 'tool_result' ? block.tool_use_id : undefined;
}

function isEmpty(message: AnthropicMessage): boolean {
  const blocks = blocksOf(message);
  return blocks.length === 0 || blocks.some((block) => block.type === 'text' && block.text === '');
}

/**
 * Checks an Anthropic Messages history against the rules of the tool use guide and the
 * Messages API reference:
 *
 * - every `tool_use` block is answered by a `tool_result` block in the user message
 *   immediately after its assistant message ("Each `tool_use` block must have a corresponding
 *   `tool_result` block in the next message"), exactly once;
 * - every `tool_result` answers a `tool_use` of the assistant message right before it
 *   ("unexpected `tool_use_id` found in `tool_result` blocks");
 * - in that user message the `tool_result` blocks come first, any text after them;
 * - `tool_use` only in assistant turns, `tool_result` only in user turns; `tool_use` ids unique
 *   and matching `^[a-zA-Z0-9_-]+$` (so must every `tool_use_id`);
 * - user and assistant turns alternate; no message or text block is empty (the final
 *   assistant message excepted, which may be an empty prefill).
 *
 * @returns every violation found, in message order; empty when the history is valid.
 * @publicApi
 */
export function validateAnthropicHistory(
  messages: readonly AnthropicMessage[],
): HistoryViolation[] {
  const violations: HistoryViolation[] = [];
  const seenToolUseIds = new Set<string>();

  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const isFinalAssistant = index === messages.length - 1 && message.role === 'assistant';
    if (isEmpty(message) && !isFinalAssistant) {
      violations.push({
        code: 'empty_message',
        index,
        message: `${message.role} message is empty`,
      });
    }
    if (index > 0 && messages[index - 1].role === message.role) {
      violations.push({
        code: 'roles_not_alternating',
        index,
        message: `two consecutive ${message.role} messages`,
      });
    }
    for (const block of blocks) {
      const id = toolCallIdOf(block);
      if (id !== undefined && !isAnthropicToolUseId(id)) {
        violations.push({
          code: 'invalid_tool_call_id',
          index,
          toolCallId: id,
          message: `${block.type} id ${JSON.stringify(id)} does not match ^[a-zA-Z0-9_-]+$`,
        });
      }
      const misplaced =
        (block.type === 'tool_use' && message.role !== 'assistant') ||
        (block.type === 'tool_result' && message.role !== 'user');
      if (misplaced) {
        violations.push({
          code: 'misplaced_block',
          index,
          message: `${block.type} block in a ${message.role} message`,
        });
      }
    }

    if (message.role === 'assistant') {
      const ids = toolUseIds(message);
      for (const id of ids) {
        if (seenToolUseIds.has(id)) {
          violations.push({
            code: 'duplicate_tool_call_id',
            index,
            toolCallId: id,
            message: `tool_use id ${id} is used more than once`,
          });
        }
        seenToolUseIds.add(id);
      }
      const next = messages[index + 1];
      const answered = new Set(
        next?.role === 'user'
          ? blocksOf(next).flatMap((block) =>
              block.type === 'tool_result' ? [block.tool_use_id] : [],
            )
          : [],
      );
      for (const id of ids) {
        if (answered.has(id)) continue;
        violations.push({
          code: 'unanswered_tool_call',
          index,
          toolCallId: id,
          message: `tool_use ${id} has no tool_result in the next message`,
        });
      }
      return;
    }

    const expected = new Set(toolUseIds(messages[index - 1]));
    const answered = new Set<string>();
    let sawOtherBlock = false;
    for (const block of blocks) {
      if (block.type !== 'tool_result') {
        sawOtherBlock = true;
        continue;
      }
      const id = block.tool_use_id;
      if (sawOtherBlock) {
        violations.push({
          code: 'tool_result_not_first',
          index,
          toolCallId: id,
          message: `tool_result ${id} comes after other content`,
        });
      }
      if (!expected.has(id)) {
        violations.push({
          code: 'orphan_tool_result',
          index,
          toolCallId: id,
          message: `tool_result ${id} answers no tool_use of the previous message`,
        });
      } else if (answered.has(id)) {
        violations.push({
          code: 'duplicate_tool_result',
          index,
          toolCallId: id,
          message: `tool_use ${id} is answered more than once`,
        });
      }
      answered.add(id);
    }
  });
  return violations;
}
