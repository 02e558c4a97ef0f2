import type {
  AssistantMessage,
  ConversationMessage,
  ConversationToolCall,
} from '../conversation/conversation-message.js';

function knownCallIds(history: readonly ConversationMessage[]): Set<string> {
  return new Set(
    history.flatMap((message) =>
      message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [],
    ),
  );
}

/**
 * The model's reply as a well-formed assistant message: content is a string, and every tool
 * call has an id that is unique in the conversation (a missing or reused id is replaced by
 * `call_<history length>_<index>`), so each call can be answered exactly once.
 */
export function normaliseReply(
  reply: unknown,
  history: readonly ConversationMessage[],
): AssistantMessage {
  const value = (
    typeof reply === 'object' && reply !== null ? reply : {}
  ) as Partial<AssistantMessage>;
  const content = typeof value.content === 'string' ? value.content : '';
  const rawCalls: readonly Partial<ConversationToolCall>[] = Array.isArray(value.toolCalls)
    ? value.toolCalls
    : [];
  if (rawCalls.length === 0) return { role: 'assistant', content };

  const known = knownCallIds(history);
  const toolCalls = rawCalls.map((raw, index): ConversationToolCall => {
    let id = typeof raw?.id === 'string' && raw.id.trim() !== '' ? raw.id : '';
    for (let attempt = 0; id === '' || known.has(id); attempt += 1) {
      id = `call_${history.length}_${index}${attempt > 0 ? `_${attempt}` : ''}`;
    }
    known.add(id);
    const name = typeof raw?.name === 'string' ? raw.name : '';
    return raw?.arguments === undefined ? { id, name } : { id, name, arguments: raw.arguments };
  });
  return { role: 'assistant', content, toolCalls };
}
