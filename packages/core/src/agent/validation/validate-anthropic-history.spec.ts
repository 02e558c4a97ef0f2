import { describe, expect, it } from '@jest/globals';
import type {
  AnthropicContentBlock,
  AnthropicMessage,
} from '../conversation/anthropic-messages.js';
import { validateAnthropicHistory } from './validate-anthropic-history.js';

const use = (id: string): AnthropicContentBlock => ({ type: 'tool_use', id, name: 't', input: {} });
const result = (id: string): AnthropicContentBlock => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'r',
});
const text = (value = 'hi'): AnthropicContentBlock => ({ type: 'text', text: value });
const user = (...content: AnthropicContentBlock[]): AnthropicMessage => ({ role: 'user', content });
const assistant = (...content: AnthropicContentBlock[]): AnthropicMessage => ({
  role: 'assistant',
  content,
});
const codes = (messages: AnthropicMessage[]) =>
  validateAnthropicHistory(messages).map((v) => v.code);

describe('validateAnthropicHistory', () => {
  it('accepts results first in the next user message, text after them', () => {
    const history = [
      user(text()),
      assistant(text(), use('a'), use('b')),
      user(result('b'), result('a'), text()),
    ];
    expect(validateAnthropicHistory(history)).toEqual([]);
  });

  it('flags a tool_use with no tool_result in the next message', () => {
    expect(
      validateAnthropicHistory([user(text()), assistant(use('a'), use('b')), user(result('a'))]),
    ).toEqual([
      expect.objectContaining({ code: 'unanswered_tool_call', index: 1, toolCallId: 'b' }),
    ]);
    expect(codes([user(text()), assistant(use('a'))])).toEqual(['unanswered_tool_call']);
  });

  it('flags results that answer nothing in the previous message, or answer twice', () => {
    expect(codes([user(result('x'))])).toEqual(['orphan_tool_result']);
    expect(codes([user(text()), assistant(use('a')), user(result('a'), result('a'))])).toEqual([
      'duplicate_tool_result',
    ]);
  });

  it('flags text before tool results', () => {
    expect(codes([user(text()), assistant(use('a')), user(text(), result('a'))])).toEqual([
      'tool_result_not_first',
    ]);
  });

  it('flags roles that do not alternate, empty messages and misplaced blocks', () => {
    expect(codes([user(text()), user(text())])).toEqual(['roles_not_alternating']);
    expect(codes([user(text('')), assistant(text())])).toEqual(['empty_message']);
    expect(codes([user(use('a')), assistant(result('a'))])).toEqual([
      'misplaced_block',
      'misplaced_block',
    ]);
  });

  it('flags tool_use and tool_result ids Anthropic refuses', () => {
    const history = [
      user(text()),
      assistant(use('functions.lookup:0')),
      user(result('functions.lookup:0')),
    ];
    expect(validateAnthropicHistory(history)).toEqual([
      expect.objectContaining({
        code: 'invalid_tool_call_id',
        index: 1,
        toolCallId: 'functions.lookup:0',
      }),
      expect.objectContaining({
        code: 'invalid_tool_call_id',
        index: 2,
        toolCallId: 'functions.lookup:0',
      }),
    ]);
    expect(codes([user(text()), assistant(use('')), user(result(''))])).toEqual([
      'invalid_tool_call_id',
      'invalid_tool_call_id',
    ]);
    expect(
      codes([user(text()), assistant(use('toolu_01-A_b')), user(result('toolu_01-A_b'))]),
    ).toEqual([]);
  });

  it('allows an empty final assistant message (prefill)', () => {
    expect(codes([user(text()), { role: 'assistant', content: [] }])).toEqual([]);
  });
});
