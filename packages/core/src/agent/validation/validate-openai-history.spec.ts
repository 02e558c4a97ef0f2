import { describe, expect, it } from '@jest/globals';
import type { OpenAIChatMessage } from '../conversation/openai-messages.js';
import { validateOpenAIHistory } from './validate-openai-history.js';

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 't', arguments: '{}' },
});
const assistant = (...ids: string[]): OpenAIChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map(call),
});
const tool = (id: string): OpenAIChatMessage => ({ role: 'tool', tool_call_id: id, content: 'r' });
const user: OpenAIChatMessage = { role: 'user', content: 'hi' };
const codes = (messages: OpenAIChatMessage[]) => validateOpenAIHistory(messages).map((v) => v.code);

describe('validateOpenAIHistory', () => {
  it('accepts calls answered right away, in any order', () => {
    expect(validateOpenAIHistory([user, assistant('a', 'b'), tool('b'), tool('a'), user])).toEqual(
      [],
    );
  });

  it('flags a call whose answer comes after another message', () => {
    const violations = validateOpenAIHistory([
      user,
      assistant('a', 'b'),
      tool('a'),
      user,
      tool('b'),
    ]);
    expect(violations).toEqual([
      expect.objectContaining({ code: 'unanswered_tool_call', index: 1, toolCallId: 'b' }),
      expect.objectContaining({ code: 'orphan_tool_result', index: 4, toolCallId: 'b' }),
    ]);
  });

  it('flags a pending call at the end of the history', () => {
    expect(codes([user, assistant('a')])).toEqual(['unanswered_tool_call']);
  });

  it('flags tool messages without a preceding call, duplicates and reused ids', () => {
    expect(codes([user, tool('x')])).toEqual(['orphan_tool_result']);
    expect(codes([user, assistant('a'), tool('a'), tool('a')])).toEqual(['duplicate_tool_result']);
    expect(codes([user, assistant('a'), tool('a'), assistant('a'), tool('a')])).toEqual([
      'duplicate_tool_call_id',
    ]);
  });

  it('flags an assistant message with neither content nor calls', () => {
    expect(codes([user, { role: 'assistant', content: null }])).toEqual(['empty_message']);
  });
});
