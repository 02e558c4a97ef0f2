import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ToolFailure } from '@toolshield/core';
import type { BreakerStateChangedEvent } from '@toolshield/core/events';
import { ToolCircuitBreakers } from '../../src/index.js';
import { type Step } from './fixtures/flaky.tools.js';
import { useFlakyApp } from './fixtures/flaky-app.js';

describe('circuit breakers through ToolExecutor', () => {
  const app = useFlakyApp();
  let breakers: ToolCircuitBreakers;
  const call = (name: string, metadata: Record<string, unknown> = {}) =>
    app.ctx.executor.execute({ id: `call_${name}`, name, arguments: {} }, { metadata });
  const callTimes = async (times: number, step: Step, name = 'upstream', metadata = {}) => {
    for (let i = 0; i < times; i++) {
      app.tools.steps = [step];
      await call(name, metadata);
    }
  };
  const transitions = () =>
    app.events
      .filter((event): event is BreakerStateChangedEvent => event.type === 'breaker.state_changed')
      .map((event) => `${event.key}: ${event.from}->${event.to}`);

  beforeEach(() => {
    breakers = app.ctx.moduleRef.get(ToolCircuitBreakers);
  });

  it('dead upstream: opens after the threshold, fails fast without the tool, a half-open probe closes it', async () => {
    await callTimes(4, 'unavailable');
    expect(breakers.find('upstream')?.state).toBe('open');
    expect(app.tools.of('upstream')).toHaveLength(4);

    await app.ctx.clock.advanceBy(4_000);
    app.tools.steps = ['ok'];
    const fastFail = (await call('upstream')) as ToolFailure;
    expect(fastFail).toMatchObject({
      errorType: 'circuit_open',
      retryAfterMs: 6_000,
      recoverable: true,
      retryCount: 0,
    });
    expect(app.tools.of('upstream')).toHaveLength(4);

    await app.ctx.clock.advanceBy(6_000);
    expect(breakers.find('upstream')?.state).toBe('half_open');
    expect(await call('upstream')).toMatchObject({ success: true });
    expect(breakers.states()).toEqual([{ key: 'upstream', tool: 'upstream', state: 'closed' }]);
    expect(transitions()).toEqual([
      'upstream: closed->open',
      'upstream: open->half_open',
      'upstream: half_open->closed',
    ]);
    expect(app.events.find((event) => event.type === 'breaker.state_changed')).toEqual({
      type: 'breaker.state_changed',
      at: 0,
      tool: 'upstream',
      key: 'upstream',
      from: 'closed',
      to: 'open',
    });
  });

  it('reopens when the half-open probe fails', async () => {
    await callTimes(4, 'unavailable');
    await app.ctx.clock.advanceBy(10_000);
    await callTimes(1, 'econnreset');
    expect(breakers.find('upstream')?.state).toBe('open');
    expect(transitions().at(-1)).toBe('upstream: half_open->open');
  });

  it('keeps one breaker per tenant when keyed: a failing tenant does not open the others', async () => {
    await callTimes(2, 'unavailable', 'tenanted', { tenant: 'acme' });
    await callTimes(1, 'ok', 'tenanted', { tenant: 'globex' });
    expect(await call('tenanted', { tenant: 'acme' })).toMatchObject({ errorType: 'circuit_open' });
    expect(await call('tenanted', { tenant: 'globex' })).toMatchObject({ success: true });
    expect(breakers.states()).toEqual([
      { key: 'tenanted:acme', tool: 'tenanted', state: 'open' },
      { key: 'tenanted:globex', tool: 'tenanted', state: 'closed' },
    ]);
  });

  it.each<Step>(['invalid', 'not_found'])(
    'counts %s as neutral: it never opens the breaker',
    async (step) => {
      await callTimes(20, step);
      expect(breakers.find('upstream')?.state).toBe('closed');
      expect(breakers.find('upstream')?.stats()).toEqual({ successes: 0, failures: 0 });
      expect(app.tools.of('upstream')).toHaveLength(20);
    },
  );

  it('counts bugs in the tool (internal) as failures', async () => {
    await callTimes(4, 'bug');
    expect(breakers.find('upstream')?.state).toBe('open');
  });

  it('opens, isolates and closes a breaker by hand, even before its first call', async () => {
    await expect(breakers.open('upstream')).resolves.toEqual({
      key: 'upstream',
      tool: 'upstream',
      state: 'open',
    });
    expect(await call('upstream')).toMatchObject({
      errorType: 'circuit_open',
      retryAfterMs: 10_000,
    });

    await breakers.isolate('upstream');
    await app.ctx.clock.advanceBy(60_000);
    const isolated = (await call('upstream')) as ToolFailure;
    expect(isolated.errorType).toBe('circuit_open');
    expect(isolated.retryAfterMs).toBeUndefined();

    await breakers.close('upstream');
    expect(await call('upstream')).toMatchObject({ success: true });
    expect(app.tools.of('upstream')).toHaveLength(1);
    await breakers.isolate('tenanted:acme');
    expect(await call('tenanted', { tenant: 'acme' })).toMatchObject({ errorType: 'circuit_open' });
    expect(transitions()).toEqual([
      'upstream: closed->open',
      'upstream: open->isolated',
      'upstream: isolated->closed',
      'tenanted:acme: closed->isolated',
    ]);
  });

  it('refuses to control a breaker no tool has', async () => {
    await expect(breakers.open('nope')).rejects.toThrow('no tool "nope" with a breaker');
    await expect(breakers.open('idempotent')).rejects.toThrow(
      'no tool "idempotent" with a breaker',
    );
  });
});
