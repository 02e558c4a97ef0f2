import { describe, expect, it } from '@jest/globals';
import {
  AgentRunner,
  InMemoryToolCallLedgerStore,
  LoopGuard,
  ToolCallLedger,
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
  type ChatModel,
  type ToolCallExecutor,
} from '../agent.js';
import {
  ConflictError,
  NetworkError,
  classifyError,
  shieldTool,
  sleep,
} from '../index.js';
import { createToolFailure } from '../internal.js';
import { VirtualClock } from '../testing/index.js';

/** The snippets and claims of packages/core/README.md, run as written (through the public entries). */
describe('the core README', () => {
  it('ledger: open, save, restart, repair', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const ledger = await ToolCallLedger.open('conv-1', store);
    ledger.append(
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
    );
    await ledger.save();
    const resumed = await ToolCallLedger.open('conv-1', store);
    expect(resumed.pendingCallIds()).toEqual(['call_1']);
    const report = resumed.repair();
    expect(report).toEqual({
      synthesized: ['call_1'],
      reattached: [],
      droppedOrphans: [],
      droppedDuplicateResults: [],
      droppedDuplicateCalls: [],
    });
    const openai = toOpenAIMessages(resumed.messages);
    expect(openai[1]).toMatchObject({ role: 'assistant', content: null });
    expect(openai[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(validateOpenAIHistory(openai)).toEqual([]);
    const anthropic = toAnthropicMessages([
      { role: 'system', content: 'Be brief.' },
      ...resumed.messages,
    ]);
    expect(anthropic.system).toBe('Be brief.');
    expect(anthropic.messages[2]?.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_1', is_error: true }),
    ]);
    expect(validateAnthropicHistory(anthropic.messages)).toEqual([]);
  });

  it('VirtualClock: startMs, and time moves only when advanced', async () => {
    const clock = new VirtualClock({ startMs: Date.UTC(2026, 0, 1) });
    let resolved = false;
    const done = sleep(clock, 1_000).then(() => (resolved = true));
    expect(resolved).toBe(false);
    await clock.advanceBy(1_000);
    await done;
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 1_000);
    await expect(clock.advanceTo(0)).rejects.toThrow(RangeError);
  });

  it('a tool marks its own ToolError retryable, with retryAfterMs', async () => {
    const conflict = new ConflictError('The order changed while we updated it.', {
      retryable: true,
      retryAfterMs: 500,
    });
    const lost = new NetworkError('The payment was sent; the reply was lost.', {
      retryable: false,
    });
    expect([conflict.retryable, lost.retryable]).toEqual([true, false]);
    const clock = new VirtualClock();
    let attempts = 0;
    const save = shieldTool(
      async () => {
        if (++attempts === 1) throw conflict;
        return 'saved';
      },
      { name: 'save', idempotent: true, clock },
    );
    const pending = save({});
    await clock.advanceBy(500);
    await expect(pending).resolves.toMatchObject({ success: true });
    expect(attempts).toBe(2);
    const failure = createToolFailure(classifyError(lost), {
      tool: 'pay',
      callId: 'c1',
      durationMs: 1,
    });
    expect(failure.errorType).toBe('network');
  });

  it('LoopGuard: trips, never throws', () => {
    const guard = new LoopGuard({ maxCallsPerTool: { search: 1 }, maxRepeatedFailures: 2 });
    expect(guard.checkSteps(20)).toMatchObject({ code: 'max_steps' });
    const call = { id: 'c1', name: 'search', arguments: { q: 'x' } };
    expect(guard.admit(call)).toBeUndefined();
    expect(guard.admit({ ...call, id: 'c2' })).toMatchObject({ code: 'tool_call_limit' });
    const failure = createToolFailure(classifyError(new NetworkError('down')), {
      tool: 'search',
      callId: 'c1',
      durationMs: 1,
    });
    guard.record(call, failure);
    guard.record(call, failure);
    expect(guard.consecutiveFailures).toBe(2);
    expect(guard.checkFailures()).toMatchObject({ code: 'repeated_failure' });
  });

  it('AgentRunner: options in, AgentRunResult out', async () => {
    const replies = [
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: 'call_1', name: 'complete', arguments: { answer: 'Sunny.' } }],
      },
    ];
    const model: ChatModel = async () => replies.shift() ?? { role: 'assistant', content: 'done' };
    const executor: ToolCallExecutor = async (call) => ({
      success: true,
      tool: call.name,
      callId: call.id ?? 'x',
      output: 'Sunny.',
      metadata: { attempts: 1, durationMs: 0 },
    });
    const runner = new AgentRunner({
      model,
      executor,
      tools: [{ name: 'complete' }],
      systemPrompt: 'You plan trips.',
    });
    const result = await runner.run({ conversationId: 'conv-1', input: 'Weather in Paris?' });
    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      steps: 1,
    });
    expect(typeof result.finalAnswer).toBe('string');
    expect(result.messages[0]).toMatchObject({ role: 'system' });
  });
});
