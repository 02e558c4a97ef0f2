import { describe, expect, it } from '@jest/globals';
import { useTravelApp } from '@toolshield/adapter-testing';
import type { ToolCatalog, ToolFailure, ToolOutcome } from '@toolshield/core';
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import { scriptedModel, toolResultsSentAt } from '@toolshield/adapter-testing/ai-model';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

const travelApp = useTravelApp();

/** The AI SDK's own multi-step loop over the catalog's tools. */
function loop(model: LanguageModel, catalog: ToolCatalog) {
  return generateText({
    model,
    tools: toAiSdkTools(catalog),
    stopWhen: isStepCount(5),
    prompt: 'Plan my trip.',
  });
}

describe('toAiSdkTools in the AI SDK agent loop', () => {
  it('gives the SDK every tool with its JSON Schema and description', async () => {
    const { catalog } = await travelApp();
    const tools = toAiSdkTools(catalog);
    expect(Object.keys(tools)).toEqual(['get_forecast', 'book_hotel']);
    expect(tools['get_forecast']).toMatchObject({ description: 'Forecast for a city.' });
    const schema = await tools['get_forecast']?.inputSchema;
    expect(JSON.stringify(schema)).toContain('"city"');
    expect(Object.keys(toAiSdkTools(catalog, { only: ['book_hotel'] }))).toEqual(['book_hotel']);
  });

  it('retries a flaky tool inside a multi-step run, and the model reads the result', async () => {
    const { catalog, clock, tools: travelTools } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'get_forecast', args: { city: 'Paris' } }],
      'Clear skies in Paris.',
    ]);
    const result = await clock.runUntilSettled(loop(model, catalog));
    expect(result.text).toBe('Clear skies in Paris.');
    expect(travelTools.flakyAttempts).toEqual([1, 2, 3]);
    const outcome = result.steps[0]?.toolResults[0]?.output as ToolOutcome;
    expect(outcome).toMatchObject({
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

  it('returns an unknown tool and invalid arguments to the model as readable failures, and the run continues', async () => {
    const { catalog, clock } = await travelApp();
    const model = scriptedModel([
      [
        { id: 'call_unknown', name: 'get_forcast', args: { city: 'Paris' } },
        { id: 'call_invalid', name: 'get_forecast', args: { city: 5 } },
      ],
      'Let me fix that.',
    ]);
    const result = await clock.runUntilSettled(loop(model, catalog));
    expect(result.text).toBe('Let me fix that.');
    const sent = toolResultsSentAt(model, 1);
    expect(sent['call_unknown']?.type).toBe('error-text');
    expect(sent['call_unknown']?.value).toMatch(/get_forcast.*get_forecast/s);
    expect(sent['call_invalid']?.type).toBe('error-text');
    expect(sent['call_invalid']?.value).toMatch(/^Tool get_forecast failed: invalid_input/);
    expect(sent['call_invalid']?.value).toContain('city');
    const invalid = result.steps[0]?.toolResults.find((part) => part.toolCallId === 'call_invalid');
    expect(invalid?.output).toMatchObject({ success: false, errorType: 'invalid_input' });
  });

  it('times a hanging tool out, aborts its signal, and the model reads the timeout', async () => {
    const { catalog, clock, tools: travelTools } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'The booking service is slow; try later.',
    ]);
    const result = await clock.runUntilSettled(loop(model, catalog));
    expect(result.text).toBe('The booking service is slow; try later.');
    expect(travelTools.hangingSignals.map((signal) => signal.aborted)).toEqual([true]);
    const failure = result.steps[0]?.toolResults[0]?.output as ToolFailure;
    expect(failure).toMatchObject({ success: false, errorType: 'timeout', callId: 'call_book' });
    expect(toolResultsSentAt(model, 1)['call_book']?.value).toMatch(
      /^Tool book_hotel failed: timeout/,
    );
  });

  it("aborts the tool's signal when the SDK's abortSignal aborts", async () => {
    const { catalog, tools: travelTools } = await travelApp();
    const model = scriptedModel([
      [{ id: 'call_book', name: 'book_hotel', args: { city: 'Rome' } }],
      'done',
    ]);
    const caller = new AbortController();
    const run = generateText({
      model,
      tools: toAiSdkTools(catalog),
      stopWhen: isStepCount(5),
      prompt: 'Book Rome.',
      abortSignal: caller.signal,
    });
    while (travelTools.hangingSignals.length === 0)
      await new Promise((resolve) => setImmediate(resolve));
    caller.abort();
    await run.catch(() => undefined);
    expect(travelTools.hangingSignals[0]?.aborted).toBe(true);
  });

  it('is a ToolSet with no cast', async () => {
    const { catalog } = await travelApp();
    const tools: ToolSet = toAiSdkTools(catalog);
    expect(tools).toBeDefined();
  });
});
