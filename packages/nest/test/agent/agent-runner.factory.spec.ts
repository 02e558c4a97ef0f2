import { afterEach, describe, expect, it } from '@jest/globals';
import {
  InMemoryToolCallLedgerStore,
  ToolCallLedgerStore,
  toAnthropicMessages,
  toOpenAIMessages,
  validateAnthropicHistory,
  validateOpenAIHistory,
  type AssistantMessage,
  type ChatModel,
  type ChatModelRequest,
  INTERRUPTED_CALL_REASON,
  INTERRUPTED_SAFE_CALL_REASON,
} from '@toolshield/core/agent';
import { AgentRunnerFactory } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { TripTools } from './fixtures/trip.tools.js';

/** A fake model that plays `turns` in order and keeps every request it got. */
function scriptedModel(turns: readonly ((request: ChatModelRequest) => AssistantMessage)[]) {
  const requests: ChatModelRequest[] = [];
  const model: ChatModel = async (request) => {
    requests.push(request);
    const turn = turns[requests.length - 1];
    if (!turn) throw new Error('The script has no more turns.');
    return turn(request);
  };
  return { model, requests };
}

describe('AgentRunnerFactory', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => ctx.close());

  it('builds a runner that recovers from a failure through the decision prompt and completes', async () => {
    const store = new InMemoryToolCallLedgerStore();
    ctx = await createToolApp([TripTools], { agent: { ledgerStore: store } });
    const { model, requests } = scriptedModel([
      () => ({
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'lookup', arguments: '{"city":"Atlantis"}' },
          { id: 'c2', name: 'record', arguments: '{"line":"looking up"}' },
        ],
      }),
      (request) => {
        const failed = request.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c1');
        expect(failed).toMatchObject({ isError: true });
        expect(JSON.parse(failed?.content ?? '{}')).toMatchObject({
          errorType: 'not_found',
          recoverable: false,
        });
        return {
          role: 'assistant',
          content: 'CONTINUE: Atlantis is unknown, trying Lima.',
          toolCalls: [{ id: 'c3', name: 'lookup', arguments: '{"city":"Lima"}' }],
        };
      },
      () => ({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c4', name: 'complete', arguments: '{"answer":"Lima is in Peru."}' }],
      }),
    ]);

    const runner = ctx.moduleRef.get(AgentRunnerFactory).create({ model });
    const result = await runner.run({ conversationId: 'trip-1', input: 'Where is Atlantis?' });

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'complete' },
      finalAnswer: 'Lima is in Peru.',
      steps: 3,
    });
    expect(requests[0].tools.map((tool) => tool.name)).toEqual(['lookup', 'record', 'complete']);
    expect(requests[0].tools[0]?.parameters).toMatchObject({ required: ['city'] });
    expect(requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [
        'Tool failed:',
        '- lookup (c1): not_found, not recoverable, retries 0/0',
        'Decide: CONTINUE with a different approach, or STOP by calling complete.',
      ].join('\n'),
    });
    expect(ctx.moduleRef.get(TripTools).recorded).toEqual(['looking up']);

    expect(validateOpenAIHistory(toOpenAIMessages(result.messages))).toEqual([]);
    expect(validateAnthropicHistory(toAnthropicMessages(result.messages).messages)).toEqual([]);
    expect(ctx.moduleRef.get(ToolCallLedgerStore)).toBe(store);
    await expect(store.load('trip-1')).resolves.toEqual(result.messages);
  });

  it('keeps histories in memory by default and takes the batch defaults from the module', async () => {
    ctx = await createToolApp([TripTools], { agent: { batch: { terminatingTools: ['record'] } } });
    const { model } = scriptedModel([
      () => ({
        role: 'assistant',
        content: 'Logging and stopping.',
        toolCalls: [
          { id: 'c1', name: 'record', arguments: '{"line":"the end"}' },
          { id: 'c2', name: 'record', arguments: '{"line":"never"}' },
        ],
      }),
    ]);

    const result = await ctx.moduleRef
      .get(AgentRunnerFactory)
      .create({ model })
      .run({ conversationId: 'c', input: 'Log it.' });

    expect(result).toMatchObject({
      status: 'completed',
      reason: { code: 'terminating_tool', tool: 'record' },
    });
    expect(ctx.moduleRef.get(TripTools).recorded).toEqual(['the end']);
    expect(ctx.moduleRef.get(ToolCallLedgerStore)).toBeInstanceOf(InMemoryToolCallLedgerStore);
    await expect(ctx.moduleRef.get(ToolCallLedgerStore).load('c')).resolves.toEqual(
      result.messages,
    );
  });

  it('answers a call interrupted before its result as safe to repeat when its tool declares no side effects', async () => {
    ctx = await createToolApp([TripTools]);
    const store = ctx.moduleRef.get(ToolCallLedgerStore);
    await store.save('crashed', [
      { role: 'user', content: 'Where is Paris? Log it.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'lookup', arguments: '{"city":"Paris"}' },
          { id: 'c2', name: 'record', arguments: '{"line":"Paris"}' },
        ],
      },
    ]);
    const { model, requests } = scriptedModel([() => ({ role: 'assistant', content: 'Done.' })]);

    await ctx.moduleRef
      .get(AgentRunnerFactory)
      .create({ model })
      .run({ conversationId: 'crashed' });

    const results = requests[0].messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.content)).toEqual([
      expect.stringContaining(INTERRUPTED_SAFE_CALL_REASON),
      expect.stringContaining(INTERRUPTED_CALL_REASON),
    ]);
  });
});
