import { describe, expect, it } from '@jest/globals';
import { type ToolCallContext } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { rejectionOf } from '../../test/run-fault.js';
import { hang } from '../faults/hang.fault.js';
import { latency } from '../faults/latency.fault.js';
import { networkError } from '../faults/network-error.fault.js';
import { rateLimit } from '../faults/rate-limit.fault.js';
import { isChaosInjected } from '../marking/chaos-marker.js';
import { ChaosController } from './chaos-controller.js';
import { ChaosInProductionError } from './production-guard.js';
import { withChaos } from './with-chaos.js';

async function lookupWeather(args: { city: string }, context: ToolCallContext) {
  return { city: args.city, callId: context.callId, attempt: context.attempt };
}

describe('withChaos', () => {
  it('is a pass-through until enabled', async () => {
    const weather = withChaos(lookupWeather, [{ fault: networkError() }], { env: {} });
    await expect(weather({ city: 'Oslo' })).resolves.toEqual({
      city: 'Oslo',
      callId: 'lookupWeather-1',
      attempt: 1,
    });
    weather.chaos.enable();
    expect(await rejectionOf(weather({ city: 'Oslo' }))).toMatchObject({ code: 'ECONNRESET' });
  });

  it('refuses to be enabled in production', () => {
    expect(() =>
      withChaos(lookupWeather, [{ fault: networkError() }], {
        enabled: true,
        env: { NODE_ENV: 'production' },
      }),
    ).toThrow(ChaosInProductionError);
  });

  it('spends 30 s of latency in virtual time, with no real waiting', async () => {
    const clock = new VirtualClock();
    const weather = withChaos(lookupWeather, [{ fault: latency({ kind: 'fixed', ms: 30_000 }) }], {
      enabled: true,
      clock,
      env: {},
      seed: 1,
    });
    const pending = weather({ city: 'Oslo' });
    await clock.runAll();
    await expect(pending).resolves.toMatchObject({ city: 'Oslo' });
    expect(clock.now()).toBe(30_000);
  });

  it('completes a partial context and passes it to the function', async () => {
    const controller = new AbortController();
    const seen: ToolCallContext[] = [];
    const tool = withChaos(
      async (_args: unknown, context: ToolCallContext) => {
        seen.push(context);
        return 'ok';
      },
      [],
      { toolName: 'probe' },
    );
    await tool(
      {},
      { callId: 'call_abc', attempt: 3, signal: controller.signal, metadata: { tenant: 't1' } },
    );
    expect(seen[0]).toEqual({
      callId: 'call_abc',
      toolName: 'probe',
      attempt: 3,
      signal: controller.signal,
      metadata: { tenant: 't1' },
    });
  });

  it('lets a timeout signal end a hang', async () => {
    const clock = new VirtualClock();
    const tool = withChaos(lookupWeather, [{ fault: hang() }], {
      enabled: true,
      clock,
      env: {},
      seed: 1,
    });
    const attempt = new AbortController();
    clock.setTimer(() => attempt.abort(new Error('attempt timed out after 5000 ms')), 5_000);
    const rejection = rejectionOf(tool({ city: 'Oslo' }, { signal: attempt.signal }));
    await clock.advanceBy(5_000);
    expect(await rejection).toMatchObject({ message: 'attempt timed out after 5000 ms' });
  });

  it('shares one controller between wrappers, with rules per tool name', async () => {
    const chaos = new ChaosController({
      seed: 3,
      enabled: true,
      env: {},
      clock: new VirtualClock(),
    });
    chaos.addRule({
      name: 'limit-search',
      tools: 'search*',
      fault: rateLimit({ retryAfterSeconds: 2 }),
    });
    const search = withChaos(async () => 'results', chaos, { toolName: 'search_web' });
    const weather = withChaos(lookupWeather, chaos);
    const error = await rejectionOf(search({}));
    expect(isChaosInjected(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, metadata: { chaosRule: 'limit-search' } });
    await expect(weather({ city: 'Oslo' })).resolves.toMatchObject({ city: 'Oslo' });
    expect(chaos.counters()).toMatchObject({ calls: 2, injections: 1, byTool: { search_web: 1 } });
  });

  it('composes faults in rule order: latency first, then the failure', async () => {
    const clock = new VirtualClock();
    const tool = withChaos(
      lookupWeather,
      [{ fault: latency({ kind: 'fixed', ms: 2_000 }) }, { fault: networkError('ETIMEDOUT') }],
      { enabled: true, clock, env: {}, seed: 1 },
    );
    const failedAt: number[] = [];
    const pending = tool({ city: 'Oslo' }).catch((error: unknown) => {
      failedAt.push(clock.now());
      return error;
    });
    await clock.runAll();
    expect(await pending).toMatchObject({ code: 'ETIMEDOUT' });
    expect(failedAt).toEqual([2_000]);
    expect(tool.chaos.counters().byFault).toEqual({ latency: 1, 'network:ETIMEDOUT': 1 });
  });
});
