/**
 * The measurement behind this package: Mastra accepts AI SDK tools (at run time; its types are
 * the AI SDK 5 and 6 ones, so an AI SDK 7 `ToolSet` needs a cast), so does the AI SDK
 * adapter (`@toolshield/ai-sdk`) already work inside a Mastra `Agent`? What it shows is in the
 * README ("Why not the AI SDK adapter?"); if Mastra or the adapter change, these fail first.
 */
import { describe, expect, it } from '@jest/globals';
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { useTravelApp } from '@toolshield/adapter-testing';
import { shieldAiSdkTools, toAiSdkTools } from '@toolshield/ai-sdk';
import type { ToolCatalog } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { jsonSchema, tool, type ToolSet } from 'ai';
import {
  asAgentModel,
  scriptedModel,
  toolResultsSentAt,
  type ScriptedCall,
} from '../test/scripted-model.js';

const travelApp = useTravelApp();

function agentWith(tools: ToolSet, steps: readonly (readonly ScriptedCall[] | string)[]) {
  const model = scriptedModel(steps);
  const agent = new Agent({
    id: 'travel',
    name: 'Travel',
    instructions: 'Plan.',
    model: asAgentModel(model),
    tools: tools as ToolsInput,
  });
  return { agent, model };
}

/** The AI SDK adapter's tools with their `toModelOutput` removed. */
function withoutModelOutput(catalog: ToolCatalog): ToolSet {
  return Object.fromEntries(
    Object.entries(toAiSdkTools(catalog)).map(([name, one]) => [
      name,
      { ...one, toModelOutput: undefined },
    ]),
  );
}

describe('the AI SDK adapter inside a Mastra Agent (measured)', () => {
  it('ends the run with a TypeError: Mastra calls toModelOutput(output), the AI SDK toModelOutput({ output, ... })', async () => {
    const { catalog, clock } = await travelApp();
    const { agent } = agentWith(toAiSdkTools(catalog), [
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies.',
    ]);
    await expect(
      clock.runUntilSettled(agent.generate('Weather?', { maxSteps: 5 })),
    ).rejects.toThrow(/Cannot read properties of undefined/);
  });

  it('so does shieldAiSdkTools, for the same reason', async () => {
    const clock = new VirtualClock();
    const search = tool({
      description: 'Search.',
      inputSchema: jsonSchema<{ query: string }>({
        type: 'object',
        properties: { query: { type: 'string' } },
      }),
      execute: async ({ query }) => ({ hits: [query] }),
    });
    const { agent } = agentWith(shieldAiSdkTools({ search }, { clock }), [
      [{ id: 'call_1', name: 'search', args: { query: 'x' } }],
      'Found.',
    ]);
    await expect(clock.runUntilSettled(agent.generate('Search.', { maxSteps: 5 }))).rejects.toThrow(
      /Cannot read properties of undefined/,
    );
  });

  it('without toModelOutput the pipeline runs, but the model reads every outcome as a JSON result, failures unmarked', async () => {
    const { catalog, clock, tools } = await travelApp();
    const { agent, model } = agentWith(withoutModelOutput(catalog), [
      [
        { id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } },
        { id: 'call_2', name: 'get_forcast', args: { city: 'Paris' } },
        { id: 'call_3', name: 'get_forecast', args: { city: 5 } },
      ],
      'done',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Plan.', { maxSteps: 5 }));
    expect(result.text).toBe('done');
    expect(tools.flakyAttempts).toEqual([1, 2, 3]); // retried
    const sent = toolResultsSentAt(model, 1);
    expect(sent['call_2']?.type).toBe('error-text'); // Mastra answers an unknown tool itself
    expect(sent['call_1']).toMatchObject({ type: 'json', value: { success: true } });
    expect(sent['call_3']).toMatchObject({
      type: 'json', // not error-text: providers do not mark it as an error
      value: { success: false, errorType: 'invalid_input' },
    });
  });

  it("without toModelOutput, the run's abortSignal reaches the tool", async () => {
    const { catalog, tools } = await travelApp();
    const { agent } = agentWith(withoutModelOutput(catalog), [
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const caller = new AbortController();
    const run = agent.generate('Book.', { maxSteps: 5, abortSignal: caller.signal });
    while (tools.hangingSignals.length === 0) await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    await run.catch(() => undefined);
    expect(tools.hangingSignals[0]?.aborted).toBe(true);
  });
});
