import { describe, expect, it } from '@jest/globals';
import { useTravelApp, type TravelApp } from '@toolshield/adapter-testing';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { ScriptedChatModel } from '../test/scripted-chat-model.js';
import { toLangChainTools, type LangChainToolsOptions } from './to-langchain-tools.js';

const travelApp = useTravelApp();

/** One turn of a LangGraph thread: its model calls the forecast as `call_3`. */
function turn({ catalog, clock }: TravelApp, threadId: string, options?: LangChainToolsOptions) {
  const model = new ScriptedChatModel([
    [{ id: 'call_3', name: 'get_forecast', args: { city: 'Paris' } }],
    'Clear skies.',
  ]);
  const agent = createAgent({
    model,
    tools: toLangChainTools(catalog, options),
    checkpointer: new MemorySaver(),
  });
  return clock.runUntilSettled(
    agent.invoke(
      { messages: [new HumanMessage('Weather in Paris?')] },
      { configurable: { thread_id: threadId } },
    ),
  );
}

describe('toLangChainTools: idempotency keys scoped by the LangGraph thread', () => {
  it('gives two threads whose model reuses call_3 different keys, and the same thread the same key', async () => {
    const app = await travelApp();
    await turn(app, 'thread-a');
    await turn(app, 'thread-b');
    await turn(app, 'thread-a'); // the same call after a resume
    expect(app.tools.forecastKeys).toEqual([
      'thread-a:call_3',
      'thread-b:call_3',
      'thread-a:call_3',
    ]);
  });

  it("scopes a ToolNode's calls by the thread_id of its config", async () => {
    const { catalog, clock, tools } = await travelApp();
    const node = new ToolNode(toLangChainTools(catalog));
    const call = new AIMessage({
      content: '',
      tool_calls: [{ id: 'call_3', name: 'get_forecast', args: { city: 'Paris' } }],
    });
    for (const threadId of ['t1', 't2']) {
      await clock.runUntilSettled(
        node.invoke({ messages: [call] }, { configurable: { thread_id: threadId } }),
      );
    }
    expect(tools.forecastKeys).toEqual(['t1:call_3', 't2:call_3']);
  });

  it('takes the conversation from the conversationId option instead of the thread', async () => {
    const app = await travelApp();
    await turn(app, 'thread-a', {
      conversationId: (config) => `tenant-1/${String(config?.configurable?.['thread_id'])}`,
    });
    expect(app.tools.forecastKeys).toEqual(['tenant-1/thread-a:call_3']);
  });

  it('gives each call a key of its own when no thread is known', async () => {
    const { catalog, clock, tools } = await travelApp();
    const [forecast] = toLangChainTools(catalog, { only: ['get_forecast'] });
    if (forecast === undefined) throw new Error('get_forecast is not in the catalog');
    const call = { type: 'tool_call', id: 'call_3', name: 'get_forecast', args: { city: 'Oslo' } };
    await clock.runUntilSettled(forecast.invoke(call));
    await clock.runUntilSettled(forecast.invoke(call));
    const [first, second] = tools.forecastKeys;
    expect(first).toMatch(/:call_3$/);
    expect(first).not.toBe(second);
  });
});
