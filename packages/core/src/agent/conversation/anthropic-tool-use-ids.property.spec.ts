import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { validateAnthropicHistory } from '../validation/validate-anthropic-history.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { anthropicToolUseIds } from './anthropic-tool-use-ids.js';
import type { ConversationMessage } from './conversation-message.js';

const VALID = /^[a-zA-Z0-9_-]+$/;

/** Ids as providers emit them, plus near-collisions once refused characters are replaced. */
const toolCallId = fc.oneof(
  fc.constantFrom(
    'functions.lookup:0',
    'functions_lookup_0',
    'functions:lookup.0',
    'a.b',
    'a:b',
    'a_b',
    '',
  ),
  fc.stringMatching(/^[a-zA-Z0-9_.:|-]{1,12}$/),
  fc.string({ maxLength: 70 }),
);

function conversationOf(ids: readonly string[]): ConversationMessage[] {
  return [
    { role: 'user', content: 'Go.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: ids.map((id, i) => ({ id, name: `tool_${i}`, arguments: {} })),
    },
    ...ids.map((id, i): ConversationMessage => ({
      role: 'tool',
      toolCallId: id,
      name: `tool_${i}`,
      content: `result ${i}`,
      isError: false,
    })),
  ];
}

function blocksOf(conversation: ReturnType<typeof toAnthropicMessages>, index: number) {
  const content = conversation.messages[index]?.content;
  return Array.isArray(content) ? content : [];
}

describe('Anthropic tool_use ids', () => {
  it('maps every id to a valid one: distinct stay distinct, valid ones unchanged, pairs kept', () => {
    fc.assert(
      fc.property(fc.uniqueArray(toolCallId, { minLength: 1, maxLength: 8 }), (ids) => {
        const converted = toAnthropicMessages(conversationOf(ids));
        const uses = blocksOf(converted, 1).flatMap((b) => (b.type === 'tool_use' ? [b] : []));
        const results = blocksOf(converted, 2).flatMap((b) =>
          b.type === 'tool_result' ? [b] : [],
        );
        const mapped = uses.map((use) => use.id);

        expect(mapped.every((id) => VALID.test(id))).toBe(true);
        expect(new Set(mapped).size).toBe(ids.length);
        ids.forEach((id, i) => {
          if (VALID.test(id)) expect(mapped[i]).toBe(id);
          expect(uses[i]?.name).toBe(`tool_${i}`);
          expect(results[i]?.tool_use_id).toBe(mapped[i]);
          expect(results[i]?.content).toBe(`result ${i}`);
        });
        expect(validateAnthropicHistory(converted.messages)).toEqual([]);
        expect(toAnthropicMessages(conversationOf(ids))).toEqual(converted);
      }),
    );
  });

  it('rewrites a refused id readably, within 64 characters', () => {
    const id = anthropicToolUseIds(['functions.lookup:0']).get('functions.lookup:0') ?? '';
    expect(id).toMatch(/^functions_lookup_0_[a-zA-Z0-9_-]{16}$/);
    const long = 'x.'.repeat(200);
    expect(anthropicToolUseIds([long]).get(long)?.length).toBeLessThanOrEqual(64);
  });

  it('steps around a valid id that already holds the rewritten name', () => {
    const rewritten = anthropicToolUseIds(['a.b']).get('a.b') ?? '';
    const ids = anthropicToolUseIds(['a.b', rewritten]);
    expect(ids.get(rewritten)).toBe(rewritten);
    expect(ids.get('a.b')).toBe(`${rewritten}_2`);
  });
});
