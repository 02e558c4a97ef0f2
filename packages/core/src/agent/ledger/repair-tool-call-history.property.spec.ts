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

async function play(events: readonly Event[]): Promise<ToolCallLedger> {
  const store = new InMemoryToolCallLedgerStore();
  let ledger = new ToolCallLedger('conv', store, [{ role: 'user', content: 'start' }]);
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
        break;
      case 'restart': // the process dies: whatever was not saved is lost
        ledger = await ToolCallLedger.open('conv', store);
        break;
      case 'repair':
        ledger.repair();
        break;
    }
  }
  ledger.repair();
  return ledger;
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
  it('after any interleaving of calls, results, orphans, duplicates, crashes and restarts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), async (events) => {
        const ledger = await play(events);
        const counts = resultCounts(ledger.messages);
        // every call id has exactly one result, and no result lacks its call (-Infinity + 1)
        for (const [, count] of counts) expect(count).toBe(1);
        expect(ledger.pendingCallIds()).toEqual([]);
        expect(providerViolations(ledger.messages)).toEqual({ openai: [], anthropic: [] });
        // repair is idempotent
        const repaired = [...ledger.messages];
        ledger.repair();
        expect(ledger.messages).toEqual(repaired);
      }),
      { numRuns: 1000 },
    );
  });
});
