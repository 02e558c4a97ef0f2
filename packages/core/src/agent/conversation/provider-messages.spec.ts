import { describe, expect, it } from '@jest/globals';
import type { ConversationMessage } from './conversation-message.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { toOpenAIMessages } from './openai-messages.js';

const history: ConversationMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'a', name: 'weather', arguments: '{"city":"Paris"}' },
      { id: 'b', name: 'clock', arguments: { tz: 'CET' } },
      { id: 'c', name: 'odd', arguments: 'not json' },
    ],
  },
  { role: 'tool', toolCallId: 'a', name: 'weather', content: '12C', isError: false },
  { role: 'tool', toolCallId: 'b', name: 'clock', content: '{"error":"x"}', isError: true },
  { role: 'tool', toolCallId: 'c', name: 'odd', content: 'ok', isError: false },
  { role: 'user', content: 'Decide.' },
];

describe('provider converters', () => {
  it('maps one to one onto Chat Completions messages', () => {
    const messages = toOpenAIMessages(history);
    expect(messages).toHaveLength(history.length);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
        { id: 'b', type: 'function', function: { name: 'clock', arguments: '{"tz":"CET"}' } },
        { id: 'c', type: 'function', function: { name: 'odd', arguments: 'not json' } },
      ],
    });
    expect(messages[4]).toEqual({ role: 'tool', tool_call_id: 'b', content: '{"error":"x"}' });
  });

  it('lifts system text out and groups results (with is_error) before text in one user turn', () => {
    const { system, messages } = toAnthropicMessages(history);
    expect(system).toBe('Be brief.');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1].content).toEqual([
      { type: 'tool_use', id: 'a', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'b', name: 'clock', input: { tz: 'CET' } },
      { type: 'tool_use', id: 'c', name: 'odd', input: { raw: 'not json' } },
    ]);
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: '12C' },
      { type: 'tool_result', tool_use_id: 'b', content: '{"error":"x"}', is_error: true },
      { type: 'tool_result', tool_use_id: 'c', content: 'ok' },
      { type: 'text', text: 'Decide.' },
    ]);
  });
});
