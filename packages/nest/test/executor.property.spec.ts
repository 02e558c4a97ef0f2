import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ToolOutcome } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { TOOL_ERROR_TYPES } from '@toolshield/core/internal';
import fc from 'fast-check';
import { createToolApp } from './fixtures/create-app.js';
import { ThrowingTools } from './fixtures/throwing.tools.js';
import { WeatherTools } from './fixtures/weather.tools.js';

const wellFormed = (outcome: ToolOutcome, callId: string) => {
  expect(outcome.callId).toBe(callId);
  expect(typeof outcome.tool).toBe('string');
  expect(outcome.metadata.attempts).toBeGreaterThanOrEqual(1);
  if (!outcome.success) {
    expect(TOOL_ERROR_TYPES).toContain(outcome.errorType);
    expect(typeof outcome.error).toBe('string');
    expect(outcome.retryCount).toBeLessThanOrEqual(outcome.retryMax);
    expect(Array.isArray(outcome.suggestions)).toBe(true);
  }
  expect(() => JSON.stringify(outcome)).not.toThrow();
};

describe('ToolExecutor.execute (property)', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let throwing: ThrowingTools;
  const terminal = new Map<string, number>();

  beforeAll(async () => {
    ctx = await createToolApp([WeatherTools, ThrowingTools]);
    throwing = ctx.moduleRef.get(ThrowingTools);
    ctx.executor.events$.subscribe((event: ToolEvent) => {
      if (event.type === 'call.succeeded' || event.type === 'call.failed') {
        terminal.set(event.callId, (terminal.get(event.callId) ?? 0) + 1);
      }
    });
  });
  afterAll(() => ctx.close());

  it('resolves to exactly one well-formed outcome for any name, argument string and thrown value', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('get_weather', 'throwing', 'returning', 'sequential-thinking'),
          fc.string(),
        ),
        fc.oneof(fc.string(), fc.json(), fc.constant('{"city":"Paris"}')),
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true }),
        async (name, args, thrown) => {
          const callId = `prop_${n++}`;
          throwing.next = thrown;
          const outcome = await ctx.executor.execute({ id: callId, name, arguments: args });
          wellFormed(outcome, callId);
          expect(terminal.get(callId)).toBe(1);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
