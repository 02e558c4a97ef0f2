import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ToolEvent, isTerminalToolEvent } from '@toolshield/core/events';
import fc from 'fast-check';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { FlakyTools, type Step } from './fixtures/flaky.tools.js';

const transient: Step[] = [
  'econnreset',
  'unavailable',
  'rate_limited',
  { retryAfter: '1' },
  { retryAfter: '120' },
];
const permanent: Step[] = ['invalid', 'not_found', 'bug'];
const retried = new Set(['idempotent', 'retryable', 'guarded']);
const step = fc.oneof(
  fc.constantFrom(...transient),
  fc.constantFrom(...permanent),
  fc.constant<Step>('ok'),
);

describe('ToolExecutor policies (property)', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: FlakyTools;
  const events: ToolEvent[] = [];

  beforeAll(async () => {
    ctx = await createToolApp([FlakyTools]);
    tools = ctx.moduleRef.get(FlakyTools);
    ctx.executor.events$.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await ctx.close();
    expect(ctx.clock.pendingTimers).toBe(0);
  });

  it('makes at most retryMax + 1 attempts, reports them truthfully, and ends every call with one terminal event', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('idempotent', 'once', 'retryable', 'upstream', 'guarded'),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        async (steps, name, maxRetries) => {
          tools.steps = [...steps];
          tools.invocations.length = 0;
          events.length = 0;
          const callId = `call_${++id}`;
          const retry = maxRetries === undefined ? {} : { retry: { maxRetries } };
          const outcome = await settle(
            ctx.clock,
            ctx.executor.execute({ id: callId, name, arguments: {} }, retry),
          );

          const attempts = tools.invocations.length;
          const retryMax = outcome.success ? undefined : outcome.retryMax;
          if (retryMax !== undefined) expect(attempts).toBeLessThanOrEqual(retryMax + 1);
          expect(outcome.metadata.attempts).toBeGreaterThanOrEqual(attempts);
          if (attempts > 0) expect(outcome.metadata.attempts).toBe(attempts);
          if (!outcome.success) expect(outcome.retryCount).toBeLessThanOrEqual(outcome.retryMax);
          if (name === 'once' || name === 'upstream') expect(attempts).toBeLessThanOrEqual(1);

          const terminal = events.filter(isTerminalToolEvent);
          expect(terminal).toHaveLength(1);
          expect(terminal[0]?.callId).toBe(callId);
          expect(events.filter((event) => event.type === 'call.started')).toHaveLength(1);
          const failedAttempts = events.filter((event) => event.type === 'attempt.failed').length;
          if (retried.has(name)) expect(failedAttempts).toBe(attempts - (outcome.success ? 1 : 0));
          expect(events.filter((event) => event.type === 'retry.scheduled')).toHaveLength(
            Math.max(0, attempts - 1),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
