import { describe, expect, it } from '@jest/globals';
import type {
  ConversationMessage,
  ToolResultMessage,
} from '../conversation/conversation-message.js';
import { callsTo, providerViolations } from '../fixtures.test.js';
import { ToolCallLedger } from './tool-call-ledger.js';
import { InMemoryToolCallLedgerStore } from './tool-call-ledger-store.js';

const result = (id: string, content = `result of ${id}`): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  name: 't',
  content,
  isError: false,
});
const user = (content: string): ConversationMessage => ({ role: 'user', content });
const roles = (messages: readonly ConversationMessage[]) =>
  messages.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role));

describe('ToolCallLedger', () => {
  it('survives a crash in the middle of a batch: reloaded and repaired, both providers accept it', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const before = new ToolCallLedger('conv', store);
    before.append(
      user('Plan my trip'),
      callsTo(['a', 'flights'], ['b', 'hotels'], ['c', 'weather']),
    );
    await before.save();
    before.append(result('a'));
    await before.save();
    before.append(result('b')); // never saved: the process dies here

    const after = await ToolCallLedger.open('conv', store);
    expect(after.pendingCallIds()).toEqual(['b', 'c']);
    expect(providerViolations(after.messages).openai).not.toEqual([]);

    const report = after.repair();
    expect(report.synthesized).toEqual(['b', 'c']);
    expect(after.pendingCallIds()).toEqual([]);
    expect(roles(after.messages)).toEqual(['user', 'assistant', 'tool:a', 'tool:b', 'tool:c']);
    const synthesized = after.messages[3] as ToolResultMessage;
    expect(synthesized.isError).toBe(true);
    expect(JSON.parse(synthesized.content)).toMatchObject({
      errorType: 'cancelled',
      recoverable: false,
    });
    expect(providerViolations(after.messages)).toEqual({ openai: [], anthropic: [] });

    after.append(user('Go on'));
    await after.save();
    const reloaded = await ToolCallLedger.open('conv', store);
    expect(roles(reloaded.messages)).toEqual(roles(after.messages));
  });

  it('moves late results back to their call and drops orphans and duplicates', () => {
    const ledger = new ToolCallLedger('conv');
    ledger.append(
      result('ghost'),
      user('q'),
      callsTo(['a', 't'], ['b', 't']),
      result('b'),
      user('interrupting'),
      result('a'),
      result('b', 'second answer'),
    );
    const report = ledger.repair();
    expect(report).toEqual({
      synthesized: [],
      reattached: ['a'],
      droppedOrphans: ['ghost'],
      droppedDuplicateResults: ['b'],
      droppedDuplicateCalls: [],
    });
    expect(roles(ledger.messages)).toEqual(['user', 'assistant', 'tool:a', 'tool:b', 'user']);
    expect((ledger.messages[3] as ToolResultMessage).content).toBe('result of b');
    expect(providerViolations(ledger.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('drops a reused call id from the later assistant message', () => {
    const ledger = new ToolCallLedger('conv');
    ledger.append(user('q'), callsTo(['a', 't']), result('a'), {
      ...callsTo(['a', 't']),
      content: 'again',
    });
    expect(ledger.repair().droppedDuplicateCalls).toEqual(['a']);
    expect(ledger.messages.at(-1)).toEqual({ role: 'assistant', content: 'again' });
    expect(providerViolations(ledger.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('leaves a valid history as it is', () => {
    const ledger = new ToolCallLedger('conv');
    ledger.append(user('q'), callsTo(['a', 't']), result('a'), {
      role: 'assistant',
      content: 'done',
    });
    const before = [...ledger.messages];
    ledger.repair();
    expect(ledger.messages).toEqual(before);
  });

  it('writes saves in order, so the store ends with the latest history', async () => {
    const writes: number[] = [];
    const ledger = new ToolCallLedger('conv', {
      load: async () => undefined,
      save: async (_id, messages) => {
        await Promise.resolve();
        writes.push(messages.length);
      },
    });
    ledger.append(user('1'));
    const first = ledger.save();
    ledger.append(user('2'));
    await Promise.all([first, ledger.save()]);
    expect(writes).toEqual([2, 2]);
  });
});
