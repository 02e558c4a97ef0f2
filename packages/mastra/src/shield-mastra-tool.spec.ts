import { describe, expect, it } from '@jest/globals';
import { Agent, type ToolsInput } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { ToolFailure, ToolOutcome } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { z } from 'zod';
import {
  asAgentModel,
  scriptedModel,
  toolResultsSentAt,
  type ScriptedCall,
} from '../test/scripted-model.js';
import { McpToolResultError } from './mcp-error-result.js';
import { shieldMastraTool } from './shield-mastra-tool.js';

const City = z.object({ city: z.string().min(2) });

function agentWith(
  tools: Record<string, unknown>,
  steps: readonly (readonly ScriptedCall[] | string)[],
) {
  const model = scriptedModel(steps);
  const agent = new Agent({
    id: 'travel',
    name: 'Travel agent',
    instructions: 'Plan trips.',
    model: asAgentModel(model),
    tools: tools as ToolsInput,
  });
  return { agent, model };
}

function outcomeOf(
  toolResults: readonly { payload: { toolCallId: string; result: unknown } }[],
  id: string,
) {
  return toolResults.find((part) => part.payload.toolCallId === id)?.payload.result as ToolOutcome;
}

const resetTwice = () => {
  let attempts = 0;
  return createTool({
    id: 'get_forecast',
    description: 'Forecast for a city.',
    inputSchema: City,
    execute: async ({ city }) => {
      attempts += 1;
      if (attempts <= 2) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      return { city, sky: 'clear', attempts };
    },
  });
};

describe("shieldMastraTool in a Mastra Agent's loop", () => {
  it('retries an idempotent tool, and the model reads its result', async () => {
    const clock = new VirtualClock();
    const forecast = shieldMastraTool(resetTwice(), { idempotent: true, clock });
    const { agent, model } = agentWith({ get_forecast: forecast }, [
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies.',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Weather?', { maxSteps: 5 }));
    expect(result.text).toBe('Clear skies.');
    expect(outcomeOf(result.toolResults, 'call_1')).toMatchObject({
      success: true,
      output: { city: 'Paris', sky: 'clear', attempts: 3 },
      metadata: { attempts: 3 },
    });
    expect(toolResultsSentAt(model, 1)['call_1']).toEqual({
      type: 'text',
      value: '{"city":"Paris","sky":"clear","attempts":3}',
    });
  });

  it('returns a failing tool and invalid arguments to the model as failures, and the run goes on', async () => {
    const clock = new VirtualClock();
    let charged = 0;
    const charge = shieldMastraTool(
      createTool({
        id: 'charge_card',
        description: 'Charges a card.',
        inputSchema: z.object({ amount: z.number() }),
        execute: async () => {
          charged += 1;
          throw Object.assign(new Error('card declined'), { status: 402 });
        },
      }),
      { clock },
    );
    const forecast = shieldMastraTool(resetTwice(), { idempotent: true, clock });
    const { agent, model } = agentWith({ charge_card: charge, get_forecast: forecast }, [
      [
        { id: 'call_charge', name: 'charge_card', args: { amount: 12 } },
        { id: 'call_invalid', name: 'get_forecast', args: { city: 'P' } },
      ],
      'I could not do that.',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Pay.', { maxSteps: 5 }));
    expect(result.text).toBe('I could not do that.');
    expect(charged).toBe(1);
    const sent = toolResultsSentAt(model, 1);
    expect(sent['call_charge']).toMatchObject({ type: 'error-text' });
    expect(sent['call_charge']?.value).toMatch(/^Tool charge_card failed/);
    expect(sent['call_invalid']?.value).toMatch(/^Tool get_forecast failed: invalid_input/);
    const failure = outcomeOf(result.toolResults, 'call_invalid') as ToolFailure;
    expect(failure).toMatchObject({ errorType: 'invalid_input', retryCount: 0 });
    expect(failure.issues?.[0]?.path).toBe('city');
  });

  it('classifies an MCP isError result and retries it when transient', async () => {
    const clock = new VirtualClock();
    const answers = [
      { isError: true, content: [{ type: 'text', text: 'Search backend busy, try again later.' }] },
      {
        isError: true,
        content: [{ type: 'text', text: 'Tool search failed: upstream_unavailable' }],
        structuredContent: {
          success: false,
          errorType: 'upstream_unavailable',
          error: 'Upstream down.',
        },
      },
      { hits: ['toolshield'] },
    ];
    const fromMcp = createTool({
      id: 'search',
      description: 'Web search (from an MCP server).',
      inputSchema: z.object({ query: z.string() }),
      mcpMetadata: { serverName: 'search', serverVersion: '1.0.0' },
      execute: async () => answers.shift(),
    });
    const busy = (error: unknown) =>
      error instanceof McpToolResultError && /try again later/.test(error.message)
        ? ('upstream_unavailable' as const)
        : undefined;
    const search = shieldMastraTool(fromMcp, {
      idempotent: true,
      clock,
      classificationRules: [busy],
    });
    const { agent } = agentWith({ search }, [
      [{ id: 'call_1', name: 'search', args: { query: 'resilience' } }],
      'Found it.',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Search.', { maxSteps: 5 }));
    expect(outcomeOf(result.toolResults, 'call_1')).toMatchObject({
      success: true,
      output: { hits: ['toolshield'] },
      metadata: { attempts: 3 },
    });
  });

  it('fails an MCP isError result it cannot call transient without retrying it', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const search = shieldMastraTool(
      createTool({
        id: 'search',
        description: 'Web search.',
        inputSchema: z.object({ query: z.string() }),
        execute: async () => {
          calls += 1;
          return { isError: true, content: [{ type: 'text', text: 'Query too long.' }] };
        },
      }),
      { idempotent: true, clock },
    );
    const called = search.execute?.({ query: 'x' }, {} as never);
    const outcome = await clock.runUntilSettled(Promise.resolve(called));
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ success: false, errorType: 'internal' });
  });

  it("times a hanging tool out and aborts its abortSignal; the run's abortSignal reaches it too", async () => {
    const clock = new VirtualClock();
    const signals: AbortSignal[] = [];
    const hang = createTool({
      id: 'book_hotel',
      description: 'Books a hotel.',
      inputSchema: City,
      execute: (_input, { abortSignal }) => {
        if (abortSignal) signals.push(abortSignal);
        return new Promise<never>(() => undefined);
      },
    });
    const { agent, model } = agentWith(
      { book_hotel: shieldMastraTool(hang, { timeoutMs: 1_000, clock }) },
      [[{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }], 'Slow.'],
    );
    await clock.runUntilSettled(agent.generate('Book.', { maxSteps: 5 }));
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(toolResultsSentAt(model, 1)['call_book']?.value).toMatch(
      /^Tool book_hotel failed: timeout/,
    );

    const caller = new AbortController();
    const untimed = agentWith({ book_hotel: shieldMastraTool(hang, { timeoutMs: false, clock }) }, [
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const run = untimed.agent.generate('Book.', { maxSteps: 5, abortSignal: caller.signal });
    while (signals.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(signals[1]?.aborted).toBe(false);
    caller.abort();
    await run.catch(() => undefined);
    expect(signals[1]?.aborted).toBe(true);
  });

  it('keys a call <conversationId>:<toolCallId>, which a failure that may have taken effect carries', async () => {
    const clock = new VirtualClock();
    const pay = shieldMastraTool(
      createTool({
        id: 'pay_invoice',
        description: 'Pays an invoice.',
        inputSchema: z.object({ invoice: z.string() }),
        execute: () => new Promise<never>(() => undefined),
      }),
      { timeoutMs: 1_000, clock, conversationId: 'chat-9' },
    );
    const { agent } = agentWith({ pay_invoice: pay }, [
      [{ id: 'call_3', name: 'pay_invoice', args: { invoice: 'INV-1' } }],
      'Checking.',
    ]);
    const result = await clock.runUntilSettled(agent.generate('Pay INV-1.', { maxSteps: 5 }));
    expect(outcomeOf(result.toolResults, 'call_3')).toMatchObject({
      errorType: 'timeout',
      effect: 'unknown',
      metadata: { idempotencyKey: 'chat-9:call_3' },
    });
  });
});
