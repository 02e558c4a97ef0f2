import { describe, expect, it } from '@jest/globals';
import { Agent } from '@mastra/core/agent';
import { useTravelApp } from '@toolshield/adapter-testing';
import type { ToolCatalog, ToolFailure, ToolOutcome } from '@toolshield/core';
import {
  asAgentModel,
  scriptedModel,
  toolResultsSentAt,
  type ScriptedCall,
} from '../test/scripted-model.js';
import { toMastraTools } from './to-mastra-tools.js';

const travelApp = useTravelApp();

/** A Mastra Agent over the catalog's tools, its model scripted. */
function travelAgent(catalog: ToolCatalog, steps: readonly (readonly ScriptedCall[] | string)[]) {
  const model = scriptedModel(steps);
  const agent = new Agent({
    id: 'travel',
    name: 'Travel agent',
    instructions: 'Plan trips.',
    model: asAgentModel(model),
    tools: toMastraTools(catalog),
  });
  return { agent, model };
}

/** The structured outcome of a call in a run's tool results. */
function outcomeOf(
  toolResults: readonly { payload: { toolCallId: string; result: unknown } }[],
  id: string,
) {
  return toolResults.find((part) => part.payload.toolCallId === id)?.payload.result as ToolOutcome;
}

describe("toMastraTools in a Mastra Agent's loop", () => {
  it('gives Mastra every tool with its JSON Schema and description', async () => {
    const { catalog } = await travelApp();
    const tools = toMastraTools(catalog);
    expect(Object.keys(tools)).toEqual(['get_forecast', 'book_hotel']);
    expect(tools['get_forecast']).toMatchObject({
      id: 'get_forecast',
      description: 'Forecast for a city.',
    });
    const schema = tools['get_forecast']?.inputSchema?.['~standard'].jsonSchema.input({
      target: 'draft-07',
    });
    expect(schema).toEqual(catalog.registry.definitions()[0]?.inputSchema);
    expect(Object.keys(toMastraTools(catalog, { only: ['book_hotel'] }))).toEqual(['book_hotel']);
  });

  it('retries a flaky tool inside the run, and the model reads the result', async () => {
    const { catalog, clock, tools: travelTools } = await travelApp();
    const { agent, model } = travelAgent(catalog, [
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies in Paris.',
    ]);
    const result = await clock.runUntilSettled(
      agent.generate('Weather in Paris?', { maxSteps: 5 }),
    );
    expect(result.text).toBe('Clear skies in Paris.');
    expect(travelTools.flakyAttempts).toEqual([1, 2, 3]);
    expect(outcomeOf(result.toolResults, 'call_1')).toMatchObject({
      success: true,
      callId: 'call_1',
      output: { city: 'Paris', sky: 'clear' },
      metadata: { attempts: 3 },
    });
    expect(toolResultsSentAt(model, 1)['call_1']).toEqual({
      type: 'text',
      value: '{"city":"Paris","sky":"clear"}',
    });
  });

  it('answers a misspelled tool, invalid arguments and a failing tool to the model, and the run goes on', async () => {
    const { catalog, clock, tools: travelTools } = await travelApp();
    const { agent, model } = travelAgent(catalog, [
      [
        { id: 'call_unknown', name: 'get_forcast', args: { city: 'Paris' } },
        { id: 'call_invalid', name: 'get_forecast', args: { city: 5 } },
        { id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } },
      ],
      'Let me fix that.',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Plan my trip.', { maxSteps: 5 }));
    expect(result.text).toBe('Let me fix that.');
    const sent = toolResultsSentAt(model, 1);
    expect(sent['call_unknown']?.type).toBe('error-text');
    expect(sent['call_unknown']?.value).toMatch(/get_forcast.*get_forecast/s);
    expect(sent['call_invalid']?.type).toBe('error-text');
    expect(sent['call_invalid']?.value).toMatch(/^Tool get_forecast failed: invalid_input/);
    expect(sent['call_invalid']?.value).toContain('city');
    expect(sent['call_book']?.type).toBe('error-text');
    expect(sent['call_book']?.value).toMatch(/^Tool book_hotel failed: timeout/);
    expect(outcomeOf(result.toolResults, 'call_invalid')).toMatchObject({
      success: false,
      errorType: 'invalid_input',
      issues: expect.arrayContaining([expect.objectContaining({ path: 'city' })]),
    });
    const timeout = outcomeOf(result.toolResults, 'call_book') as ToolFailure;
    expect(timeout).toMatchObject({ success: false, errorType: 'timeout', callId: 'call_book' });
    expect(travelTools.hangingSignals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it("aborts the tool's signal when the run's abortSignal aborts", async () => {
    const { catalog, tools: travelTools } = await travelApp();
    const { agent } = travelAgent(catalog, [
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const caller = new AbortController();
    const run = agent.generate('Book Rome.', { maxSteps: 5, abortSignal: caller.signal });
    while (travelTools.hangingSignals.length === 0)
      await new Promise((resolve) => setImmediate(resolve));
    expect(travelTools.hangingSignals[0]?.aborted).toBe(false);
    caller.abort();
    await run.catch(() => undefined);
    expect(travelTools.hangingSignals[0]?.aborted).toBe(true);
  });
});

describe('toMastraTools idempotency keys', () => {
  it('scopes each call by the conversationId option: two conversations reusing call_3 get different keys', async () => {
    const { catalog, clock, tools } = await travelApp();
    for (const chat of ['chat-1', 'chat-2']) {
      const agent = new Agent({
        id: 'travel',
        name: 'Travel agent',
        instructions: 'Plan trips.',
        model: asAgentModel(
          scriptedModel([[{ id: 'call_3', name: 'get_forecast', args: { city: 'Oslo' } }], 'ok']),
        ),
        tools: toMastraTools(catalog, { conversationId: chat }),
      });
      await clock.runUntilSettled(agent.generate('Weather?', { maxSteps: 5 }));
    }
    expect(tools.forecastKeys).toEqual(['chat-1:call_3', 'chat-2:call_3']);
  });
});

describe('toMastraTools default conversation', () => {
  it("scopes a call by the agent's memory thread when Mastra gives one", async () => {
    const { catalog, clock, tools } = await travelApp();
    const forecast = toMastraTools(catalog)['get_forecast'];
    const context = {
      agent: { agentId: 'travel', toolCallId: 'call_3', threadId: 'thread-7', messages: [] },
    };
    await clock.runUntilSettled(
      Promise.resolve(forecast?.execute?.({ city: 'Oslo' }, context as never)),
    );
    expect(tools.forecastKeys).toEqual(['thread-7:call_3']);
  });
});
