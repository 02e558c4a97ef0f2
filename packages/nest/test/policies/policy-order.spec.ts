import { describe, expect, it } from '@jest/globals';
import { ToolCircuitBreakers, type ToolPolicyName } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { FlakyTools, type Step } from './fixtures/flaky.tools.js';

async function app(policyOrder?: readonly ToolPolicyName[]) {
  const ctx = await createToolApp([FlakyTools], policyOrder ? { policyOrder } : {});
  const tools = ctx.moduleRef.get(FlakyTools);
  const call = (steps: Step[]) => {
    tools.steps = [...steps];
    return settle(ctx.clock, ctx.executor.execute({ id: 'c', name: 'guarded', arguments: {} }));
  };
  return { ...ctx, tools, call, breakers: ctx.moduleRef.get(ToolCircuitBreakers) };
}

describe('policyOrder', () => {
  it('by default runs Retry(RateLimit(CircuitBreaker(Timeout(Bulkhead(tool))))): the breaker counts the call once', async () => {
    const ctx = await app();
    expect(
      await ctx.call(['unavailable', 'unavailable', 'unavailable', 'unavailable']),
    ).toMatchObject({
      errorType: 'upstream_unavailable',
      retryCount: 3,
    });
    expect(ctx.breakers.find('guarded')?.stats()).toEqual({ successes: 0, failures: 1 });
    expect(await ctx.call(['unavailable', 'unavailable', 'ok'])).toMatchObject({ success: true });
    expect(ctx.breakers.find('guarded')?.stats()).toEqual({ successes: 1, failures: 1 });
    await ctx.close();
  });

  it('with the breaker outermost, one call counts once however many attempts it took', async () => {
    const ctx = await app(['breaker', 'retry', 'timeout', 'bulkhead']);
    expect(
      await ctx.call(['unavailable', 'unavailable', 'unavailable', 'unavailable']),
    ).toMatchObject({
      retryCount: 3,
    });
    expect(ctx.breakers.find('guarded')?.stats()).toEqual({ successes: 0, failures: 1 });
    expect(await ctx.call(['unavailable', 'ok'])).toMatchObject({
      success: true,
      metadata: { attempts: 2 },
    });
    expect(ctx.breakers.find('guarded')?.stats()).toEqual({ successes: 1, failures: 1 });
    await ctx.close();
  });

  it('with the timeout outermost, the limit covers all attempts and ends the retry loop with it', async () => {
    const ctx = await app(['timeout', 'retry', 'breaker', 'bulkhead']);
    const outcome = await ctx.call(['econnreset', 'econnreset', 'econnreset', 'econnreset']);
    expect(outcome).toMatchObject({
      errorType: 'timeout',
      retryCount: 2,
      metadata: { durationMs: 250 },
    });
    expect(ctx.tools.of('guarded').map((invocation) => invocation.at)).toEqual([0, 100, 200]);
    await ctx.clock.advanceBy(1_000);
    expect(ctx.tools.of('guarded')).toHaveLength(3);
    expect(ctx.clock.pendingTimers).toBe(0);
    await ctx.close();
  });

  it('starts the attempt after a timed-out one from a live signal, whatever the order', async () => {
    for (const order of [
      ['retry', 'bulkhead', 'timeout', 'breaker'],
      ['bulkhead', 'retry', 'breaker', 'timeout'],
    ] as const) {
      const ctx = await app(order);
      expect(await ctx.call(['hang', 'ok'])).toMatchObject({
        success: true,
        metadata: { attempts: 2 },
      });
      const [first, second] = ctx.tools.of('guarded').map((invocation) => invocation.at);
      expect([first, second]).toEqual([0, 350]);
      await ctx.close();
      expect(ctx.clock.pendingTimers).toBe(0);
    }
  });
});
