import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { ToolOutcome } from '../../results/index.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type { ToolResultMessage } from '../conversation/conversation-message.js';
import { callsTo, failed, flushPromises, scriptedModel, succeeded } from '../fixtures.test.js';
import { INTERRUPTED_SAFE_CALL_REASON } from '../ledger/repair-tool-call-history.js';
import { InMemoryToolCallLedgerStore } from '../ledger/tool-call-ledger-store.js';
import { AgentRunner } from './agent-runner.js';

const answer = (content: string) => ({ role: 'assistant' as const, content });

/** A read that answers after 500 ms, or is cut as `cancelled` when its signal aborts first. */
function slowRead(clock: VirtualClock): ToolCallExecutor {
  return (call, { signal } = {}) =>
    new Promise<ToolOutcome>((resolve) => {
      const cancel = clock.setTimer(() => resolve(succeeded(call, 'the page')), 500);
      signal?.addEventListener('abort', () => {
        cancel();
        resolve(
          failed(call, 'cancelled', {
            error: 'The caller cancelled the call.',
            recoverable: false,
          }),
        );
      });
    });
}

describe('AgentRunner stopped by its own signal (a shutdown handing the run back)', () => {
  it('leaves the calls it cut or skipped to the repair, which says a read is safe to repeat', async () => {
    const clock = new VirtualClock();
    const store = new InMemoryToolCallLedgerStore();
    const reads = [1, 2, 3, 4, 5].map(
      (n) => [`r${n}`, 'fetch_page', { n }] as [string, string, { n: number }],
    );
    const options = {
      executor: slowRead(clock),
      store,
      batch: { strategy: 'parallel' as const, concurrency: 4 },
      safeToRepeat: (tool: string) => tool === 'fetch_page',
    };
    const shutdown = new AbortController();
    const first = new AgentRunner({ ...options, model: scriptedModel([callsTo(...reads)]) });
    const running = first.run({ conversationId: 'c', input: 'Read', signal: shutdown.signal });
    await flushPromises();
    clock.setTimer(() => shutdown.abort(), 100);
    await clock.advanceBy(100);
    expect(await running).toMatchObject({ status: 'stopped', reason: { code: 'aborted' } });

    const resumedModel = scriptedModel([answer('Done.')]);
    await new AgentRunner({ ...options, model: resumedModel }).run({ conversationId: 'c' });
    const seen = resumedModel.requests[0].messages.filter(
      (message): message is ToolResultMessage => message.role === 'tool',
    );
    expect(seen.map((message) => message.toolCallId)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    for (const message of seen) {
      expect(message.content).toContain(INTERRUPTED_SAFE_CALL_REASON);
      expect(message.content).not.toMatch(/cancelled the call|Not run/);
    }
  });
});
