import { describe, expect, it } from '@jest/globals';
import { useTravelApp } from '@toolshield/adapter-testing';
import type { ToolOutcome } from '@toolshield/core';
import { Agent, type Tool } from '@openai/agents';
import { runAgent, scriptedModel, toolOutputsSentAt } from '../test/scripted-run.js';
import { toAgentsTools } from './to-agents-tools.js';
import { toolshieldRunConfig } from './toolshield-run-config.js';

const startTravelApp = useTravelApp();

async function travelApp() {
  const travel = await startTravelApp();
  const outcomes: ToolOutcome[] = [];
  const agentTools = toAgentsTools(travel.catalog, {
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  return { ...travel, agentTools, outcomes };
}

describe('toAgentsTools in the Agents SDK Runner', () => {
  it('gives the SDK non-strict function tools with their JSON Schema', async () => {
    const { agentTools: tools, catalog } = await travelApp();
    expect(tools.map((tool) => [tool.type, tool.name, tool.strict])).toEqual([
      ['function', 'get_forecast', false],
      ['function', 'book_hotel', false],
    ]);
    expect(tools[0]?.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    expect(toAgentsTools(catalog, { only: ['book_hotel'] }).map((tool) => tool.name)).toEqual([
      'book_hotel',
    ]);
  });

  it('retries a flaky tool inside a multi-step run, and the model reads the result', async () => {
    const { agentTools: tools, clock, outcomes, ...travel } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies in Paris.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, tools));
    expect(result.finalOutput).toBe('Clear skies in Paris.');
    expect(travel.tools.flakyAttempts).toEqual([1, 2, 3]);
    expect(outcomes).toMatchObject([
      { success: true, callId: 'call_1', metadata: { attempts: 3 } },
    ]);
    expect(toolOutputsSentAt(model, 1)['call_1']).toBe('{"city":"Paris","sky":"clear"}');
  });

  it('returns an unknown tool and invalid arguments to the model as readable failures, and the run continues', async () => {
    const { agentTools: tools, clock } = await travelApp();
    const model = scriptedModel([
      [
        { id: 'call_unknown', name: 'get_forcast', args: { city: 'Paris' } },
        { id: 'call_invalid', name: 'get_forecast', args: { city: 5 } },
      ],
      'Let me fix that.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, tools, toolshieldRunConfig(tools)));
    expect(result.finalOutput).toBe('Let me fix that.');
    const sent = toolOutputsSentAt(model, 1);
    expect(sent['call_unknown']).toMatch(/^Tool get_forcast failed: tool_not_found/);
    expect(sent['call_unknown']).toContain('Did you mean: get_forecast?');
    expect(sent['call_invalid']).toMatch(/^Tool get_forecast failed: invalid_input/);
    expect(sent['call_invalid']).toContain('city');
  });

  it('times a hanging tool out, aborts its signal, and the model reads the timeout', async () => {
    const { agentTools: tools, clock, ...travel } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'Try later.',
    ]);
    const result = await clock.runUntilSettled(runAgent(model, tools));
    expect(result.finalOutput).toBe('Try later.');
    expect(travel.tools.hangingSignals.map((signal) => signal.aborted)).toEqual([true]);
    expect(toolOutputsSentAt(model, 1)['call_book']).toMatch(/^Tool book_hotel failed: timeout/);
  });

  it("aborts the tool's signal when the run is cancelled", async () => {
    const { agentTools: tools, ...travel } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const caller = new AbortController();
    const running = runAgent(model, tools, {}, caller.signal).catch(() => undefined);
    while (travel.tools.hangingSignals.length === 0)
      await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    await running;
    expect(travel.tools.hangingSignals[0]?.aborted).toBe(true);
  });

  it("compiles against the SDK's own tool and agent types with no cast", async () => {
    const { agentTools: tools } = await travelApp();
    const asTools: Tool[] = tools;
    const agent = new Agent({ name: 'typed', tools });
    expect([asTools, agent]).toHaveLength(2);
  });
});
