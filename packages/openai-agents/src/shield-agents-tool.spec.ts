import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import { tool, type FunctionTool } from '@openai/agents';
import { runAgent, scriptedModel, toolOutputsSentAt } from '../test/scripted-run.js';
import { shieldAgentsTool } from './shield-agents-tool.js';
import type { AgentsToolParameters } from './to-agents-tools.js';

const cityParameters: AgentsToolParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: true,
};

/** Plain Agents SDK tools: a flaky lookup and a booking that never answers. */
function travelTools() {
  const seen = { forecastAttempts: 0, bookingSignals: [] as (AbortSignal | undefined)[] };
  const forecast = tool({
    name: 'forecast',
    description: 'Forecast for a city.',
    parameters: cityParameters,
    strict: false,
    errorFunction: null,
    execute: async (input) => {
      seen.forecastAttempts++;
      if (seen.forecastAttempts <= 2) {
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return `${(input as { city: string }).city}: clear`;
    },
  });
  const book = tool({
    name: 'book',
    description: 'Books a hotel.',
    parameters: cityParameters,
    strict: false,
    errorFunction: null,
    execute: (_input, _context, details) => {
      seen.bookingSignals.push(details?.signal);
      return new Promise<string>(() => undefined);
    },
  });
  return { forecast, book, seen };
}

describe('shieldAgentsTool in the Agents SDK Runner', () => {
  it('retries a flaky idempotent tool in a multi-step run, and the model reads its result', async () => {
    const clock = new VirtualClock();
    const { forecast, seen } = travelTools();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'forecast', args: { city: 'Oslo' } }],
      'Clear in Oslo.',
    ]);
    const result = await clock.runUntilSettled(
      runAgent(model, [shieldAgentsTool(forecast, { idempotent: true, clock })]),
    );
    expect(result.finalOutput).toBe('Clear in Oslo.');
    expect(seen.forecastAttempts).toBe(3);
    expect(toolOutputsSentAt(model, 1)['call_1']).toBe('Oslo: clear');
  });

  it('returns a failure of a tool that is not idempotent to the model without retrying it', async () => {
    const clock = new VirtualClock();
    const { forecast, seen } = travelTools();
    const model = scriptedModel([
      [{ id: 'call_2', name: 'forecast', args: { city: 'Oslo' } }],
      'Sorry.',
    ]);
    const result = await clock.runUntilSettled(
      runAgent(model, [shieldAgentsTool(forecast, { clock })]),
    );
    expect(result.finalOutput).toBe('Sorry.');
    expect(seen.forecastAttempts).toBe(1);
    expect(toolOutputsSentAt(model, 1)['call_2']).toMatch(
      /^Tool forecast failed: network, attempt 1\/1\./,
    );
  });

  it("times a hanging tool out with the SDK's signal aborted, and the model reads the failure", async () => {
    const clock = new VirtualClock();
    const { book, seen } = travelTools();
    const model = scriptedModel([
      [{ id: 'call_3', name: 'book', args: { city: 'Rome' } }],
      'Try later.',
    ]);
    const result = await clock.runUntilSettled(
      runAgent(model, [shieldAgentsTool(book, { timeoutMs: 2_000, clock })]),
    );
    expect(result.finalOutput).toBe('Try later.');
    expect(seen.bookingSignals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(toolOutputsSentAt(model, 1)['call_3']).toMatch(/^Tool book failed: timeout/);
  });

  it("keeps the tool's own type", () => {
    const { forecast } = travelTools();
    const shielded: FunctionTool<unknown, AgentsToolParameters, string> =
      shieldAgentsTool(forecast);
    expect(shielded.name).toBe('forecast');
  });
});
