import type { OpenAIChatMessage } from '../conversation/openai-messages.js';
import type { HistoryViolation } from './history-violation.js';

interface OpenToolCalls {
  readonly index: number;
  readonly ids: ReadonlySet<string>;
  readonly answered: Set<string>;
}

/**
 * Checks a Chat Completions history against the ordering rules the API enforces:
 *
 * - an assistant message with `tool_calls` must be followed by `tool` messages answering every
 *   `tool_call_id`, before any other message ("An assistant message with 'tool_calls' must be
 *   followed by tool messages responding to each 'tool_call_id'");
 * - a `tool` message must answer a call of the assistant message its run of tool messages
 *   follows ("messages with role 'tool' must be a response to a preceding message with
 *   'tool_calls'"), and answers it once;
 * - tool call ids are unique; an assistant message has content or tool calls.
 *
 * @returns every violation found, in message order; empty when the history is valid.
 * @publicApi
 */
export function validateOpenAIHistory(messages: readonly OpenAIChatMessage[]): HistoryViolation[] {
  const violations: HistoryViolation[] = [];
  const seenCallIds = new Set<string>();
  let open: OpenToolCalls | undefined;

  const close = () => {
    if (!open) return;
    for (const id of open.ids) {
      if (open.answered.has(id)) continue;
      violations.push({
        code: 'unanswered_tool_call',
        index: open.index,
        toolCallId: id,
        message: `tool_call_id ${id} has no tool message right after its assistant message`,
      });
    }
    open = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (!open?.ids.has(id)) {
        violations.push({
          code: 'orphan_tool_result',
          index,
          toolCallId: id,
          message: `tool message ${id} does not answer a call of the preceding assistant message`,
        });
      } else if (open.answered.has(id)) {
        violations.push({
          code: 'duplicate_tool_result',
          index,
          toolCallId: id,
          message: `tool_call_id ${id} is answered more than once`,
        });
      } else {
        open.answered.add(id);
      }
      return;
    }
    close();
    if (message.role !== 'assistant') return;
    const calls = message.tool_calls ?? [];
    if (calls.length === 0 && message.content === null) {
      violations.push({
        code: 'empty_message',
        index,
        message: 'assistant message has neither content nor tool_calls',
      });
    }
    for (const call of calls) {
      if (seenCallIds.has(call.id)) {
        violations.push({
          code: 'duplicate_tool_call_id',
          index,
          toolCallId: call.id,
          message: `tool call id ${call.id} is used more than once`,
        });
      }
      seenCallIds.add(call.id);
    }
    if (calls.length > 0) {
      open = { index, ids: new Set(calls.map((call) => call.id)), answered: new Set() };
    }
  });
  close();
  return violations;
}
