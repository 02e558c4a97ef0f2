import { describe, expect, it } from '@jest/globals';
import { useTravelApp } from '@toolshield/adapter-testing';
import type { ToolOutcome } from '@toolshield/core';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { ScriptedChatModel, toolMessagesSentAt } from '../test/scripted-chat-model.js';
import { toLangChainTools } from './to-langchain-tools.js';

const startTravelApp = useTravelApp();

async function travelApp() {
  const travel = await startTravelApp();
  return { ...travel, langChainTools: toLangChainTools(travel.catalog) };
}

function runAgent(
  model: ScriptedChatModel,
  tools: StructuredToolInterface[],
  signal?: AbortSignal,
) {
  return createAgent({ model, tools }).invoke(
    { messages: [new HumanMessage('Plan my trip.')] },
    { signal },
  );
}

describe('toLangChainTools in a langchain v1 agent', () => {
  it('gives LangChain structured tools with their JSON Schema', async () => {
    const { langChainTools, catalog } = await travelApp();
    expect(langChainTools.map((tool) => tool.name)).toEqual(['get_forecast', 'book_hotel']);
    expect(langChainTools[0]?.schema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    expect(toLangChainTools(catalog, { only: ['book_hotel'] }).map((tool) => tool.name)).toEqual([
      'book_hotel',
    ]);
  });

  it('retries a flaky tool inside a multi-step run, and the model reads the result', async () => {
    const { langChainTools, clock, tools } = await travelApp();
    const model = new ScriptedChatModel([
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies in Paris.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, langChainTools));
    expect(result.messages.at(-1)?.content).toBe('Clear skies in Paris.');
    expect(tools.flakyAttempts).toEqual([1, 2, 3]);
    const sent = toolMessagesSentAt(model, 1)['call_1'];
    expect(sent?.status).toBe('success');
    expect(sent?.content).toBe('{"city":"Paris","sky":"clear"}');
    expect(sent?.artifact as ToolOutcome).toMatchObject({
      success: true,
      metadata: { attempts: 3 },
    });
  });

  it('returns an unknown tool and invalid arguments to the model as error ToolMessages, and the run continues', async () => {
    const { langChainTools, clock } = await travelApp();
    const model = new ScriptedChatModel([
      [
        { id: 'call_unknown', name: 'get_forcast', args: { city: 'Paris' } },
        { id: 'call_short', name: 'get_forecast', args: { city: 'P' } },
        { id: 'call_wrong_type', name: 'get_forecast', args: { city: 5 } },
      ],
      'Let me fix that.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, langChainTools));
    expect(result.messages.at(-1)?.content).toBe('Let me fix that.');
    const sent = toolMessagesSentAt(model, 1);
    expect(Object.values(sent).map((message) => message.status)).toEqual([
      'error',
      'error',
      'error',
    ]);
    // createAgent's own tool node names the tools the agent has (what the README says).
    expect(sent['call_unknown']?.content).toContain(
      'get_forcast is not a valid tool, try one of [get_forecast, book_hotel]',
    );
    expect(sent['call_short']?.content).toMatch(/^Tool get_forecast failed: invalid_input/);
    expect(sent['call_short']?.content).toContain('city');
    expect(sent['call_wrong_type']?.content).toMatch(/^Tool get_forecast failed: invalid_input/);
    expect(JSON.stringify(sent)).not.toMatch(/ at .*node_modules/);
  });

  it('times a hanging tool out, aborts its signal, and the model reads the timeout', async () => {
    const { langChainTools, clock, tools } = await travelApp();
    const model = new ScriptedChatModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'Try later.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, langChainTools));
    expect(result.messages.at(-1)?.content).toBe('Try later.');
    expect(tools.hangingSignals.map((signal) => signal.aborted)).toEqual([true]);
    const sent = toolMessagesSentAt(model, 1)['call_book'];
    expect(sent?.status).toBe('error');
    expect(sent?.content).toMatch(/^Tool book_hotel failed: timeout/);
  });

  it("aborts the tool's signal when the run is cancelled", async () => {
    const { langChainTools, tools } = await travelApp();
    const model = new ScriptedChatModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const caller = new AbortController();
    const running = runAgent(model, langChainTools, caller.signal).catch(() => undefined);
    while (tools.hangingSignals.length === 0) await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    await running;
    expect(tools.hangingSignals[0]?.aborted).toBe(true);
  });

  it("runs in LangGraph's ToolNode, failures as error ToolMessages", async () => {
    const { langChainTools, clock } = await travelApp();
    const node = new ToolNode(langChainTools);
    const request = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'call_a', name: 'get_forecast', args: { city: 'Oslo' }, type: 'tool_call' },
        { id: 'call_b', name: 'get_forecast', args: { city: 'O' }, type: 'tool_call' },
      ],
    });
    const { messages } = (await clock.runUntilSettled(node.invoke({ messages: [request] }))) as {
      messages: ToolMessage[];
    };
    expect(messages.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['call_a', 'success'],
      ['call_b', 'error'],
    ]);
  });

  it("gets from LangGraph's ToolNode, for an unknown tool, an error that does not name the tools", async () => {
    const { langChainTools } = await travelApp();
    const request = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'call_x', name: 'get_forcast', args: { city: 'Oslo' }, type: 'tool_call' },
      ],
    });
    const { messages } = (await new ToolNode(langChainTools).invoke({ messages: [request] })) as {
      messages: ToolMessage[];
    };
    expect(messages[0]?.status).toBe('error');
    expect(messages[0]?.content).toMatch(/^Error: Tool "get_forcast" not found\./);
    expect(messages[0]?.content).not.toContain('get_forecast');
  });

  it("compiles against LangChain's own tool types with no cast", async () => {
    const { langChainTools } = await travelApp();
    const asInterfaces: StructuredToolInterface[] = langChainTools;
    expect(asInterfaces).toHaveLength(2);
  });
});
