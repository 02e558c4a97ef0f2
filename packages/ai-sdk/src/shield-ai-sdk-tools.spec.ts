import { describe, expect, it } from '@jest/globals';
import { type ToolOutcome } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import {
  generateText,
  isStepCount,
  jsonSchema,
  tool,
  type InferToolOutput,
  type ToolSet,
} from 'ai';
import { scriptedModel, toolResultsSentAt } from '@toolshield/adapter-testing/ai-model';
import { shieldAiSdkTools } from './shield-ai-sdk-tools.js';

/** `true` only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const cityInput = jsonSchema<{ city: string }>({
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
});

/** A plain AI SDK tool set: a flaky lookup, a booking that never answers, a client-side tool. */
function travelToolSet() {
  const seen = { forecastAttempts: 0, bookingSignals: [] as (AbortSignal | undefined)[] };
  const tools = {
    forecast: tool({
      description: 'Forecast for a city.',
      inputSchema: cityInput,
      execute: async ({ city }) => {
        seen.forecastAttempts++;
        if (seen.forecastAttempts <= 2)
          throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        return { city, sky: 'clear' };
      },
      toModelOutput: ({ output }) => ({ type: 'text', value: `${output.city}: ${output.sky}` }),
    }),
    book: tool({
      description: 'Books a hotel.',
      inputSchema: cityInput,
      execute: (_input, { abortSignal }) => {
        seen.bookingSignals.push(abortSignal);
        return new Promise<string>(() => undefined);
      },
    }),
    askUser: tool({ description: 'Asks the user.', inputSchema: cityInput }),
  };
  return { tools, seen };
}

const shieldOptions = (clock: VirtualClock) => ({
  clock,
  timeoutMs: 2_000,
  tools: { forecast: { idempotent: true } },
});

describe('shieldAiSdkTools in the AI SDK agent loop', () => {
  it('retries a flaky idempotent tool in a multi-step run, and the model reads its own rendering', async () => {
    const clock = new VirtualClock();
    const { tools, seen } = travelToolSet();
    const model = scriptedModel([
      [{ id: 'call_1', name: 'forecast', args: { city: 'Oslo' } }],
      'Clear in Oslo.',
    ]);
    const result = await clock.runUntilSettled(
      generateText({
        model,
        tools: shieldAiSdkTools(tools, shieldOptions(clock)),
        stopWhen: isStepCount(5),
        prompt: 'Weather?',
      }),
    );
    expect(result.text).toBe('Clear in Oslo.');
    expect(seen.forecastAttempts).toBe(3);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      success: true,
      tool: 'forecast',
      callId: 'call_1',
      output: { city: 'Oslo', sky: 'clear' },
      metadata: { attempts: 3 },
    });
    expect(toolResultsSentAt(model, 1)['call_1']).toEqual({ type: 'text', value: 'Oslo: clear' });
  });

  it('times a hanging tool out with its abortSignal aborted, and the model reads the failure', async () => {
    const clock = new VirtualClock();
    const { tools, seen } = travelToolSet();
    const model = scriptedModel([
      [{ id: 'call_2', name: 'book', args: { city: 'Rome' } }],
      'Try later.',
    ]);
    const result = await clock.runUntilSettled(
      generateText({
        model,
        tools: shieldAiSdkTools(tools, shieldOptions(clock)),
        stopWhen: isStepCount(5),
        prompt: 'Book.',
      }),
    );
    expect(result.text).toBe('Try later.');
    expect(seen.bookingSignals.map((signal) => signal?.aborted)).toEqual([true]);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      success: false,
      errorType: 'timeout',
    });
    const sent = toolResultsSentAt(model, 1)['call_2'];
    expect(sent?.type).toBe('error-text');
    expect(sent?.value).toMatch(/^Tool book failed: timeout, attempt 1\/1\./);
  });

  it('does not retry a tool that is not marked idempotent', async () => {
    const clock = new VirtualClock();
    const { tools, seen } = travelToolSet();
    const shielded = shieldAiSdkTools(tools, { clock });
    const outcome = await shielded.forecast.execute?.(
      { city: 'Oslo' },
      { toolCallId: 'call_3', messages: [], context: {} },
    );
    expect(seen.forecastAttempts).toBe(1);
    expect(outcome).toMatchObject({ success: false, errorType: 'network', retryCount: 0 });
  });

  it('tunes the retries of the idempotent tools with shared retry options, and never retries the others', async () => {
    const clock = new VirtualClock();
    const { tools, seen } = travelToolSet();
    const shielded = shieldAiSdkTools(tools, {
      clock,
      timeoutMs: 2_000,
      retry: { maxRetries: 1, backoff: { jitter: 'none', baseMs: 100 } },
      tools: { forecast: { idempotent: true } },
    });
    const execution = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });
    const [forecast, book] = await clock.runUntilSettled(
      Promise.all([
        shielded.forecast.execute?.({ city: 'Oslo' }, execution('call_4')),
        shielded.book.execute?.({ city: 'Oslo' }, execution('call_5')),
      ]),
    );
    expect([seen.forecastAttempts, seen.bookingSignals.length]).toEqual([2, 1]);
    expect(forecast).toMatchObject({ success: false, retryCount: 1, retryMax: 1 });
    expect(book).toMatchObject({ success: false, errorType: 'timeout', retryMax: 0 });
    const sharedIdempotent = { idempotent: true, retry: { maxRetries: 1 } };
    expect(() =>
      shieldAiSdkTools(tools, { ...sharedIdempotent, tools: { book: { idempotent: false } } }),
    ).not.toThrow();
  });

  it("refuses one tool's own retry options when it is not marked idempotent, naming it", () => {
    const { tools } = travelToolSet();
    expect(() =>
      shieldAiSdkTools(tools, { tools: { book: { retry: { maxRetries: 1 } } } }),
    ).toThrow(
      /^Invalid shieldTool options: shieldTool\(book\)\.retry must be on a tool declared idempotent/,
    );
  });

  it('leaves tools without execute as they are, and its output is a ToolSet typed with outcomes', () => {
    const { tools } = travelToolSet();
    const shielded = shieldAiSdkTools(tools);
    expect(shielded.askUser).toBe(tools.askUser);
    const set: ToolSet = shielded;
    const outputIsOutcome: Same<
      InferToolOutput<typeof shielded.forecast>,
      ToolOutcome<{ city: string; sky: string }>
    > = true;
    expect([set, outputIsOutcome]).toHaveLength(2);
  });

  it('types each tool result as its ToolOutcome once narrowed on dynamic and toolName (checked by tsc)', async () => {
    const clock = new VirtualClock();
    const { tools } = travelToolSet();
    const shielded = shieldAiSdkTools(tools, shieldOptions(clock));
    const model = scriptedModel([
      [{ id: 'call_1', name: 'forecast', args: { city: 'Oslo' } }],
      'ok',
    ]);
    const result = await clock.runUntilSettled(
      generateText({ model, tools: shielded, stopWhen: isStepCount(3), prompt: 'Weather?' }),
    );
    const skies: string[] = [];
    for (const part of result.steps.flatMap((step) => step.toolResults)) {
      // @ts-expect-error a part may be a dynamic tool's, whose output is `unknown`
      const unnarrowed: ToolOutcome = part.output;
      expect(unnarrowed).toBeDefined();
      if (part.dynamic) continue;
      const anyOfTheSet: ToolOutcome = part.output;
      expect(anyOfTheSet.tool).toBe('forecast');
      if (part.toolName !== 'forecast') continue;
      const outcome: ToolOutcome<{ city: string; sky: string }> = part.output;
      if (outcome.success) skies.push(outcome.output.sky);
    }
    expect(skies).toEqual(['clear']);
  });
});
