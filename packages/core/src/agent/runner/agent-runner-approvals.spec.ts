import { describe, expect, it } from '@jest/globals';
import { approvalFailure } from '../../approvals/approval-failure.js';
import type { ApprovalRecord } from '../../approvals/approval-record.js';
import type { ToolCallRequest, ToolFailure, ToolOutcome } from '../../results/index.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type { ToolResultMessage } from '../conversation/conversation-message.js';
import { callsTo, failed, providerViolations, scriptedModel, succeeded } from '../fixtures.test.js';
import { InMemoryToolCallLedgerStore } from '../ledger/tool-call-ledger-store.js';
import { AgentRunner } from './agent-runner.js';

const answer = (content: string) => ({ role: 'assistant' as const, content });
const tools = ['lookup', 'pay', 'search', 'complete'].map((name) => ({ name }));

function recordOf(call: ToolCallRequest, conversationId = 'run_1'): ApprovalRecord {
  return {
    id: `appr_${call.id}`,
    tool: call.name,
    callId: call.id ?? '',
    args: {},
    shownArgs: {},
    idempotencyKey: `${conversationId}:${call.id}`,
    conversationId,
    requestedAt: 0,
    expiresAt: 3_600_000,
    status: 'pending',
  };
}

/**
 * An executor as `ToolExecutor` is for these tools: `pay` waits for approval, `search`
 * fails, the rest succeed; it counts what ran.
 */
function approvingExecutor() {
  const ran: string[] = [];
  const executor: ToolCallExecutor = async (call) => {
    if (call.name === 'pay') return approvalFailure('pending', recordOf(call));
    ran.push(call.name);
    if (call.name === 'search') return failed(call);
    return succeeded(call, call.name === 'complete' ? 'Paid and done.' : `${call.name} ok`);
  };
  /** What `resolveApproval` returns for the `pay` call `callId`. */
  const decide = (callId: string, approved: boolean, reason?: string): ToolOutcome => {
    const call = { id: callId, name: 'pay' };
    if (!approved) return approvalFailure('denied', recordOf(call), { reason });
    ran.push('pay');
    return succeeded(call, 'paid');
  };
  return { executor, decide, ran };
}

describe('AgentRunner with a call that needs approval', () => {
  it('suspends after the calls that need none, and waits across restarts without asking the model', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const { executor, ran } = approvingExecutor();
    const model = scriptedModel([callsTo(['a', 'lookup'], ['b', 'pay'], ['c', 'lookup'])]);
    const runner = new AgentRunner({ model, executor, tools, store });

    const result = await runner.run({ conversationId: 'run_1', input: 'Pay invoice 9' });

    expect(ran).toEqual(['lookup', 'lookup']);
    expect(result).toMatchObject({
      status: 'awaiting_approval',
      reason: { code: 'awaiting_approval' },
      awaitingApproval: [
        { callId: 'b', tool: 'pay', approval: { id: 'appr_b', idempotencyKey: 'run_1:b' } },
      ],
    });
    const again = await new AgentRunner({ model, executor, tools, store }).run({
      conversationId: 'run_1',
    });
    expect(again.status).toBe('awaiting_approval');
    expect(model.requests).toHaveLength(1);
    const saved = (await store.load('run_1')) ?? [];
    expect(saved.filter((message) => message.role === 'tool')).toHaveLength(3);
  });

  it('resumes where it stopped once the decision is in, on a new runner over the same store', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const { executor, decide } = approvingExecutor();
    const model = scriptedModel([
      callsTo(['a', 'lookup'], ['b', 'pay']),
      answer('Invoice 9 is paid.'),
    ]);
    await new AgentRunner({ model, executor, tools, store }).run({
      conversationId: 'run_1',
      input: 'Pay invoice 9',
    });

    const result = await new AgentRunner({ model, executor, tools, store }).run({
      conversationId: 'run_1',
      approvalOutcomes: [decide('b', true)],
    });

    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Invoice 9 is paid.' });
    const seen = model.requests[1].messages;
    expect(seen.find((m) => m.role === 'tool' && m.toolCallId === 'b')).toMatchObject({
      content: 'paid',
      isError: false,
    });
    expect(seen.some((m) => 'awaitingApproval' in m)).toBe(false);
    expect(providerViolations(seen)).toEqual({ openai: [], anthropic: [] });
  });

  it('tells the model a person declined, then asks it to CONTINUE or STOP', async () => {
    const { executor, decide } = approvingExecutor();
    const model = scriptedModel([callsTo(['b', 'pay']), callsTo(['z', 'complete'])]);
    const runner = new AgentRunner({ model, executor, tools });
    await runner.run({ conversationId: 'run_1', input: 'Pay invoice 9' });

    const result = await runner.run({
      conversationId: 'run_1',
      approvalOutcomes: [decide('b', false, 'duplicate invoice')],
    });

    expect(result).toMatchObject({ status: 'completed', reason: { code: 'terminating_tool' } });
    const seen = model.requests[1].messages;
    const declined = seen.find(
      (m) => m.role === 'tool' && m.toolCallId === 'b',
    ) as ToolResultMessage;
    expect(declined.content).toContain(
      'A person declined: duplicate invoice. Do not call it again with these arguments.',
    );
    expect(seen.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Tool failed:\n- pay \(b\): approval_denied/),
    });
  });

  it('keeps a terminating call of the paused batch: the run ends once the decision is in', async () => {
    const { executor, decide } = approvingExecutor();
    const model = scriptedModel([callsTo(['b', 'pay'], ['c', 'complete'])]);
    const runner = new AgentRunner({ model, executor, tools });
    expect((await runner.run({ conversationId: 'run_1', input: 'Pay' })).status).toBe(
      'awaiting_approval',
    );

    const result = await runner.run({
      conversationId: 'run_1',
      approvalOutcomes: [decide('b', true)],
    });

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      finalAnswer: 'Paid and done.',
    });
    expect(model.requests).toHaveLength(1);
  });

  it('prompts for the failures of the paused batch after the decision, not before', async () => {
    const { executor, decide } = approvingExecutor();
    const model = scriptedModel([callsTo(['a', 'search'], ['b', 'pay']), answer('Done.')]);
    const runner = new AgentRunner({ model, executor, tools });
    const paused = await runner.run({ conversationId: 'run_1', input: 'Pay' });
    expect(paused.messages.at(-1)?.role).toBe('tool');

    await runner.run({ conversationId: 'run_1', approvalOutcomes: [decide('b', true)] });

    expect(model.requests[1].messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Tool failed:\n- search \(a\): upstream_unavailable/),
    });
  });

  it('waits for every call of the batch that needs approval', async () => {
    const { executor, decide } = approvingExecutor();
    const model = scriptedModel([callsTo(['b', 'pay'], ['d', 'pay']), answer('Both paid.')]);
    const runner = new AgentRunner({ model, executor, tools });
    await runner.run({ conversationId: 'run_1', input: 'Pay both' });

    const half = await runner.run({
      conversationId: 'run_1',
      approvalOutcomes: [decide('d', true)],
    });
    expect(half).toMatchObject({
      status: 'awaiting_approval',
      awaitingApproval: [{ callId: 'b' }],
    });
    const done = await runner.run({
      conversationId: 'run_1',
      approvalOutcomes: [decide('b', true)],
    });
    expect(done).toMatchObject({ status: 'completed', finalAnswer: 'Both paid.' });
  });

  it('reads an expiry as its own failure', async () => {
    const { executor } = approvingExecutor();
    const model = scriptedModel([callsTo(['b', 'pay']), answer('Nobody approved it.')]);
    const runner = new AgentRunner({ model, executor, tools });
    await runner.run({ conversationId: 'run_1', input: 'Pay' });
    const expired: ToolFailure = approvalFailure('expired', recordOf({ id: 'b', name: 'pay' }));

    await runner.run({ conversationId: 'run_1', approvalOutcomes: [expired] });

    const seen = model.requests[1].messages;
    expect(seen.find((m) => m.role === 'tool' && m.toolCallId === 'b')?.content).toContain(
      'Nobody approved the call within 60 min, so it did not run.',
    );
  });
});
