import { describe, expect, it } from '@jest/globals';
import { type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { AIMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { ScriptedChatModel, toolMessagesSentAt } from '../test/scripted-chat-model.js';
import { shieldLangChainTool } from './shield-langchain-tool.js';

const City = z.object({ city: z.string() });

/** Plain LangChain tools: a flaky lookup and a booking that never answers. */
function travelTools() {
  const seen = { forecastAttempts: 0, bookingSignals: [] as (AbortSignal | undefined)[] };
  const forecast = tool(
    async ({ city }) => {
      seen.forecastAttempts++;
      if (seen.forecastAttempts <= 2) {
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return `${city}: clear`;
    },
    { name: 'forecast', description: 'Forecast for a city.', schema: City },
  );
  const book = tool(
    (_input, config) => {
      seen.bookingSignals.push(config.signal);
      return new Promise<string>(() => undefined);
    },
    { name: 'book', description: 'Books a hotel.', schema: City },
  );
  return { forecast, book, seen };
}

function runAgent(model: ScriptedChatModel, tools: StructuredToolInterface[]) {
  return createAgent({ model, tools }).invoke({ messages: [new HumanMessage('Plan my trip.')] });
}

describe('shieldLangChainTool in a langchain v1 agent', () => {
  it('retries a flaky idempotent tool in a multi-step run, and the model reads its result', async () => {
    const clock = new VirtualClock();
    const { forecast, seen } = travelTools();
    const model = new ScriptedChatModel([
      [{ id: 'call_1', name: 'forecast', args: { city: 'Oslo' } }],
      'Clear in Oslo.',
    ]);
    const result = await clock.runUntilSettled(
      runAgent(model, [shieldLangChainTool(forecast, { idempotent: true, clock })]),
    );
    expect(result.messages.at(-1)?.content).toBe('Clear in Oslo.');
    expect(seen.forecastAttempts).toBe(3);
    expect(toolMessagesSentAt(model, 1)['call_1']).toMatchObject({
      status: 'success',
      content: 'Oslo: clear',
    });
  });

  it('returns failures as error ToolMessages carrying the ToolFailure, without retrying a tool that is not idempotent', async () => {
    const clock = new VirtualClock();
    const { forecast, seen } = travelTools();
    const model = new ScriptedChatModel([
      [
        { id: 'call_2', name: 'forecast', args: { city: 'Oslo' } },
        { id: 'call_3', name: 'forecast', args: { town: 'Oslo' } },
      ],
      'Sorry.',
    ]);
    const result = await clock.runUntilSettled(
      runAgent(model, [shieldLangChainTool(forecast, { clock })]),
    );
    expect(result.messages.at(-1)?.content).toBe('Sorry.');
    expect(seen.forecastAttempts).toBe(1);
    const sent = toolMessagesSentAt(model, 1);
    expect(sent['call_2']?.status).toBe('error');
    expect(sent['call_2']?.content).toMatch(/^Tool forecast failed: network, attempt 1\/1\./);
    expect(sent['call_2']?.artifact as ToolFailure).toMatchObject({
      errorType: 'network',
      callId: 'call_2',
    });
    expect(sent['call_3']?.content).toMatch(/^Tool forecast failed: invalid_input/);
  });

  it("times a hanging tool out with its signal aborted, in LangGraph's ToolNode", async () => {
    const clock = new VirtualClock();
    const { book, seen } = travelTools();
    const node = new ToolNode([shieldLangChainTool(book, { timeoutMs: 2_000, clock })]);
    const request = new AIMessage({
      content: '',
      tool_calls: [{ id: 'call_4', name: 'book', args: { city: 'Rome' }, type: 'tool_call' }],
    });
    const { messages } = (await clock.runUntilSettled(node.invoke({ messages: [request] }))) as {
      messages: ToolMessage[];
    };
    expect(seen.bookingSignals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(messages[0]).toMatchObject({ status: 'error', tool_call_id: 'call_4' });
    expect(messages[0]?.content).toMatch(/^Tool book failed: timeout/);
  });

  it('answers bare invocations with the failure text, and keeps the tool and its type', async () => {
    const clock = new VirtualClock();
    const { forecast } = travelTools();
    const shielded: typeof forecast = shieldLangChainTool(forecast, { clock });
    expect(shielded.name).toBe('forecast');
    expect(shielded.schema).toBe(forecast.schema);
    await expect(shielded.invoke({ city: 'Oslo' })).resolves.toMatch(
      /^Tool forecast failed: network/,
    );
  });
});
