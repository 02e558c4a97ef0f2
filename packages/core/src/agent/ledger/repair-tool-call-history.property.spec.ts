import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ConversationMessage } from '../conversation/conversation-message.js';
import { providerViolations } from '../fixtures.test.js';
import { ToolCallLedger } from './tool-call-ledger.js';
import { InMemoryToolCallLedgerStore } from './tool-call-ledger-store.js';

/** One thing that can happen to a conversation between two model requests. */
type Event =
  | { kind: 'user' }
  | { kind: 'assistant'; calls: number; text: boolean }
  | { kind: 'result'; pick: number }
  | { kind: 'orphan' }
  | { kind: 'save' }
  | { kind: 'restart' }
  | { kind: 'repair' };

const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'user' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      calls: fc.nat(3),
      text: fc.boolean(),
    }),
  },
  // `pick` chooses among the calls made so far: duplicates and late results happen naturally.
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('result' as const), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'orphan' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'save' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'repair' as const }) },
);

/** What the ledger should hold: its calls, and which of them a real result answers first. */
interface Shadow {
  readonly calls: Set<string>;
  readonly answered: Set<string>;
  readonly answeredByTool: Set<string>;
}

const copyShadow = (shadow: Shadow): Shadow => ({
  calls: new Set(shadow.calls),
  answered: new Set(shadow.answered),
  answeredByTool: new Set(shadow.answeredByTool),
});

async function play(events: readonly Event[]): Promise<{ ledger: ToolCallLedger; shadow: Shadow }> {
  const store = new InMemoryToolCallLedgerStore();
  let ledger = new ToolCallLedger('conv', store, [{ role: 'user', content: 'start' }]);
  let shadow: Shadow = { calls: new Set(), answered: new Set(), answeredByTool: new Set() };
  let saved = copyShadow(shadow);
  const callIds: string[] = [];
  let next = 0;
  for (const step of events) {
    switch (step.kind) {
      case 'user':
        ledger.append({ role: 'user', content: 'more' });
        break;
      case 'assistant': {
        const ids = Array.from({ length: step.calls }, () => `call_${next++}`);
        callIds.push(...ids);
        for (const id of ids) shadow.calls.add(id);
        const content = step.text || ids.length === 0 ? 'thinking' : '';
        ledger.append({
          role: 'assistant',
          content,
          toolCalls: ids.map((id) => ({ id, name: 't' })),
        });
        break;
      }
      case 'result':
        if (callIds.length > 0) {
          const id = callIds[step.pick % callIds.length];
          if (shadow.calls.has(id) && !shadow.answered.has(id)) {
            shadow.answered.add(id);
            shadow.answeredByTool.add(id);
          }
          ledger.append({ role: 'tool', toolCallId: id, name: 't', content: 'r', isError: false });
        }
        break;
      case 'orphan':
        ledger.append({
          role: 'tool',
          toolCallId: `orphan_${next++}`,
          name: 't',
          content: 'r',
          isError: false,
        });
        break;
      case 'save':
        await ledger.save();
        saved = copyShadow(shadow);
        break;
      case 'restart': // the process dies: whatever was not saved is lost
        ledger = await ToolCallLedger.open('conv', store);
        shadow = copyShadow(saved);
        break;
      case 'repair':
        ledger.repair();
        for (const id of shadow.calls) shadow.answered.add(id);
        break;
    }
  }
  ledger.repair();
  return { ledger, shadow };
}

function resultCounts(messages: readonly ConversationMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) counts.set(call.id, 0);
  }
  for (const message of messages) {
    if (message.role === 'tool')
      counts.set(message.toolCallId, (counts.get(message.toolCallId) ?? -Infinity) + 1);
  }
  return counts;
}

describe('repair (property)', () => {
  it('leaves one result per call, real ones kept, valid for both providers, after any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), async (events) => {
        const { ledger, shadow } = await play(events);
        const counts = resultCounts(ledger.messages);
        expect([...counts.keys()].sort()).toEqual([...shadow.calls].sort());
        // every call id has exactly one result, and no result lacks its call (-Infinity + 1)
        for (const [, count] of counts) expect(count).toBe(1);
        expect(ledger.pendingCallIds()).toEqual([]);
        expect(providerViolations(ledger.messages)).toEqual({ openai: [], anthropic: [] });
        // a real result is never replaced; only calls without one get a synthesized failure
        for (const message of ledger.messages) {
          if (message.role === 'tool') {
            expect(message.isError).toBe(!shadow.answeredByTool.has(message.toolCallId));
          }
        }
        // repair is idempotent
        const repaired = [...ledger.messages];
        ledger.repair();
        expect(ledger.messages).toEqual(repaired);
      }),
      { numRuns: 1000 },
    );
  });
});
