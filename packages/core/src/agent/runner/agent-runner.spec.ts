import { describe, expect, it } from '@jest/globals';
import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type {
  ConversationMessage,
  ToolResultMessage,
} from '../conversation/conversation-message.js';
import {
  callsTo,
  deferred,
  failed,
  flushPromises,
  providerViolations,
  scriptedModel,
  succeeded,
} from '../fixtures.test.js';
import {
  INTERRUPTED_CALL_REASON,
  INTERRUPTED_SAFE_CALL_REASON,
} from '../ledger/repair-tool-call-history.js';
import { InMemoryToolCallLedgerStore } from '../ledger/tool-call-ledger-store.js';
import { AgentRunner } from './agent-runner.js';
import type { ChatModel } from './chat-model.js';

const answer = (content: string) => ({ role: 'assistant' as const, content });

/** Succeeds, except for the tools listed, which fail with `upstream_unavailable`. */
const executorFailing =
  (...failing: string[]): ToolCallExecutor =>
  async (call) =>
    failing.includes(call.name)
      ? failed(call)
      : succeeded(call, call.name === 'complete' ? 'All done.' : 'ok');

function expectEveryRequestValid(model: {
  requests: { messages: readonly ConversationMessage[] }[];
}) {
  for (const request of model.requests) {
    expect(providerViolations(request.messages)).toEqual({ openai: [], anthropic: [] });
  }
}

describe('AgentRunner', () => {
  it('completes when the model answers without tool calls, after a guided system prompt', async () => {
    const model = scriptedModel([answer('Paris is sunny.')]);
    const runner = new AgentRunner({
      model,
      executor: executorFailing(),
      systemPrompt: 'You plan trips.',
    });
    const result = await runner.run({ conversationId: 'c', input: 'Weather?' });
    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'answered' },
      finalAnswer: 'Paris is sunny.',
      steps: 1,
    });
    const system = result.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^You plan trips\.\n\nTool failures come back/);
  });

  it('asks the model to decide after a failure, then completes through the completion tool', async () => {
    const model = scriptedModel([
      callsTo(['a', 'search', { q: 'x' }]),
      callsTo(['b', 'lookup', { q: 'x' }]),
      callsTo(['c', 'complete', { summary: 'done' }]),
    ]);
    const tools = ['search', 'lookup', 'complete'].map((name) => ({ name }));
    const runner = new AgentRunner({ model, executor: executorFailing('search'), tools });
    const result = await runner.run({ conversationId: 'c', input: 'Find x' });

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      finalAnswer: 'All done.',
      steps: 3,
    });
    const second = model.requests[1].messages;
    const failure = second.at(-2) as ToolResultMessage;
    expect(failure).toMatchObject({ role: 'tool', toolCallId: 'a', isError: true });
    expect(JSON.parse(failure.content)).toMatchObject({
      errorType: 'upstream_unavailable',
      recoverable: true,
    });
    expect(second.at(-1)).toEqual({
      role: 'user',
      content: expect.stringMatching(
        /^Tool failed:\n- search \(a\): upstream_unavailable, recoverable, retries 2\/2\nDecide: CONTINUE/,
      ),
    });
    expect(model.requests[2].messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'b',
      isError: false,
    });
    expectEveryRequestValid(model);
  });

  it('adds no decision prompt for a recoverable failure under unrecoverable-only', async () => {
    const model = scriptedModel([callsTo(['a', 'search']), answer('ok')]);
    const runner = new AgentRunner({
      model,
      executor: executorFailing('search'),
      decisionPrompt: 'unrecoverable-only',
    });
    await runner.run({ conversationId: 'c', input: 'q' });
    expect(model.requests[1].messages.at(-1)?.role).toBe('tool');
  });

  it('stops gracefully when the same call keeps failing (key order does not matter)', async () => {
    const model = scriptedModel([
      callsTo(['a', 'search', { q: 'x', n: 1 }]),
      callsTo(['b', 'search', { n: 1, q: 'x' }]),
      callsTo(['c', 'search', { q: 'x', n: 1 }]),
    ]);
    const runner = new AgentRunner({
      model,
      executor: executorFailing('search'),
      guards: { maxRepeatedFailures: 2 },
    });
    const result = await runner.run({ conversationId: 'c', input: 'q' });
    expect(result).toMatchObject({
      status: 'stopped',
      reason: { code: 'repeated_failure' },
      finalAnswer:
        "I stopped before finishing: 'search' failed 2 times with the same arguments. Last error (search): search failed.",
      steps: 2,
    });
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: result.finalAnswer });
    expect(providerViolations(result.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('stops at max steps with a repaired history and a final answer', async () => {
    const model = scriptedModel(
      Array.from({ length: 5 }, (_, i) => callsTo([`s${i}`, 'search', { page: i }])),
    );
    const runner = new AgentRunner({ model, executor: executorFailing(), guards: { maxSteps: 3 } });
    const result = await runner.run({ conversationId: 'c', input: 'q' });
    expect(result).toMatchObject({ status: 'stopped', reason: { code: 'max_steps' }, steps: 3 });
    expect(result.finalAnswer).toBe('I stopped before finishing: Reached the step limit (3).');
    expect(providerViolations(result.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('stops on consecutive failures of different calls', async () => {
    const model = scriptedModel([callsTo(['a', 'x']), callsTo(['b', 'y'])]);
    const runner = new AgentRunner({
      model,
      executor: executorFailing('x', 'y'),
      guards: { maxConsecutiveFailures: 2 },
    });
    expect((await runner.run({ conversationId: 'c', input: 'q' })).reason.code).toBe(
      'consecutive_failures',
    );
  });

  it('answers calls beyond a call limit with limit_exceeded, without running them, and stops', async () => {
    const ran: string[] = [];
    const model = scriptedModel([callsTo(['a', 'fetch'], ['b', 'fetch'], ['c', 'other'])]);
    const runner = new AgentRunner({
      model,
      executor: async (call) => {
        ran.push(call.id ?? '');
        return succeeded(call);
      },
      guards: { maxCallsPerTool: { fetch: 1 } },
    });
    const result = await runner.run({ conversationId: 'c', input: 'q' });
    expect(ran).toEqual(['a']);
    expect(result).toMatchObject({ status: 'stopped', reason: { code: 'tool_call_limit' } });
    const refused = result.messages.filter(
      (m): m is ToolResultMessage => m.role === 'tool' && m.isError,
    );
    expect(refused.map((m) => [m.toolCallId, JSON.parse(m.content).errorType])).toEqual([
      ['b', 'limit_exceeded'],
      ['c', 'limit_exceeded'],
    ]);
    expect(providerViolations(result.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('ends with status error when the model throws, and survives an executor that rejects', async () => {
    const model = scriptedModel([callsTo(['a', 'search'])]);
    const runner = new AgentRunner({
      model,
      executor: () => Promise.reject(new Error('executor bug')),
    });
    const result = await runner.run({ conversationId: 'c', input: 'q' });
    expect(result).toMatchObject({
      status: 'error',
      reason: { code: 'model_error', message: 'The model request failed: script exhausted' },
      steps: 2,
    });
    expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({
      toolCallId: 'a',
      isError: true,
    });
  });

  it('gives calls without ids (or with reused ids) fresh unique ids', async () => {
    const model = scriptedModel([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: '', name: 'a' },
          { id: 'dup', name: 'b' },
          { id: 'dup', name: 'c' },
        ],
      },
      answer('done'),
    ]);
    const runner = new AgentRunner({ model, executor: executorFailing() });
    const result = await runner.run({ conversationId: 'c', input: 'q' });
    const ids = (
      result.messages[2].role === 'assistant' ? (result.messages[2].toolCalls ?? []) : []
    ).map((c) => c.id);
    expect(ids).toEqual(['call_2_0', 'dup', 'call_2_2']);
    expectEveryRequestValid(model);
  });

  it('stops as aborted when the caller aborts during a batch', async () => {
    const controller = new AbortController();
    const model = scriptedModel([callsTo(['a', 'search'], ['b', 'search'])]);
    const runner = new AgentRunner({
      model,
      executor: async (call) => {
        controller.abort();
        return succeeded(call);
      },
    });
    const result = await runner.run({ conversationId: 'c', input: 'q', signal: controller.signal });
    expect(result).toMatchObject({ status: 'stopped', reason: { code: 'aborted' }, steps: 1 });
    expect(providerViolations(result.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('resumes a conversation that crashed in the middle of a batch, from the store', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const hang = deferred<ToolOutcome>();
    const started: string[] = [];
    const crashing: ToolCallExecutor = async (call: ToolCallRequest) => {
      started.push(call.id ?? '');
      return call.id === 'b' ? hang.promise : succeeded(call, `booked ${call.id}`);
    };
    const firstModel: ChatModel = scriptedModel([
      callsTo(['a', 'book'], ['b', 'book'], ['c', 'book']),
    ]);
    void new AgentRunner({ model: firstModel, executor: crashing, store }).run({
      conversationId: 'trip',
      input: 'Book it',
    });
    await flushPromises();
    expect(started).toEqual(['a', 'b']); // 'b' hangs: the process dies here, 'c' never starts

    const model = scriptedModel([answer('Booked a; b and c need checking.')]);
    const restarted = new AgentRunner({ model, executor: executorFailing(), store });
    const result = await restarted.run({ conversationId: 'trip' });

    expect(result.status).toBe('completed');
    const seen = model.requests[0].messages.filter(
      (m): m is ToolResultMessage => m.role === 'tool',
    );
    expect(
      seen.map((m) => [
        m.toolCallId,
        m.isError,
        m.isError ? JSON.parse(m.content).errorType : m.content,
      ]),
    ).toEqual([
      ['a', false, 'booked a'],
      ['b', true, 'cancelled'],
      ['c', true, 'cancelled'],
    ]);
    expectEveryRequestValid(model);
    expect(providerViolations(result.messages)).toEqual({ openai: [], anthropic: [] });
  });

  it('tells the model an interrupted call of a tool that is safe to repeat may be made again, and only other calls have an unknown outcome', async () => {
    const store = new InMemoryToolCallLedgerStore();
    const hang = deferred<ToolOutcome>();
    void new AgentRunner({
      model: scriptedModel([callsTo(['w', 'get_weather'], ['b', 'book'])]),
      executor: () => hang.promise,
      store,
    }).run({ conversationId: 'trip', input: 'Weather, then book' });
    await flushPromises(); // both calls hang: the process dies here

    const model = scriptedModel([answer('Checking again.')]);
    await new AgentRunner({
      model,
      executor: executorFailing(),
      store,
      safeToRepeat: (tool) => tool === 'get_weather',
    }).run({ conversationId: 'trip' });

    const seen = model.requests[0].messages.filter(
      (m): m is ToolResultMessage => m.role === 'tool',
    );
    const [weather, booking] = seen.map((m) => JSON.parse(m.content));
    expect(weather).toMatchObject({
      errorType: 'cancelled',
      recoverable: true,
      error: INTERRUPTED_SAFE_CALL_REASON,
      suggestions: ['Call it again with the same arguments.'],
    });
    expect(booking).toMatchObject({
      errorType: 'cancelled',
      recoverable: false,
      error: INTERRUPTED_CALL_REASON,
    });
    expect(booking.error).toContain('may or may not have taken effect');
    expectEveryRequestValid(model);
  });

  it('refuses a safeToRepeat that is not a function', () => {
    expect(
      () =>
        new AgentRunner({
          model: scriptedModel([]),
          executor: executorFailing(),
          safeToRepeat: ['get_weather'] as never,
        }),
    ).toThrow(/safeToRepeat/);
  });
});
