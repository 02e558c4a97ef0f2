import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { InvalidOptionsError } from '@toolshield/core';
import { ToolShieldHealthIndicator } from '../../src/health/index.js';
import { ToolCircuitBreakers } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { FlakyTools } from '../policies/fixtures/flaky.tools.js';
import { ShopTools } from './fixtures/shop.tools.js';

describe('ToolShieldHealthIndicator (@toolshield/nest/health)', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let indicator: ToolShieldHealthIndicator;
  let health: HealthCheckService;
  let breakers: ToolCircuitBreakers;
  const ready = (critical?: readonly string[]) =>
    health.check([() => indicator.isReady('tools', { critical })]);

  beforeEach(async () => {
    ctx = await createToolApp(
      [FlakyTools, ShopTools, ToolShieldHealthIndicator],
      {},
      { imports: [TerminusModule.forRoot({ logger: false })] },
    );
    indicator = ctx.moduleRef.get(ToolShieldHealthIndicator);
    health = ctx.moduleRef.get(HealthCheckService);
    breakers = ctx.moduleRef.get(ToolCircuitBreakers);
  });
  afterEach(() => ctx.close());

  it('is up with no breaker used yet, and with closed breakers', async () => {
    expect(indicator.isReady()).toEqual({
      toolshield: {
        status: 'up',
        breakers: {},
        open: [],
        half_open: [],
        degraded: false,
        critical_open: [],
      },
    });
    await ctx.executor.execute({ id: 'a', name: 'upstream', arguments: {} });
    await expect(ready()).resolves.toMatchObject({
      status: 'ok',
      info: { tools: { status: 'up', breakers: { upstream: 'closed' }, degraded: false } },
    });
  });

  it('stays up, degraded, while breakers of tools not declared critical are open or isolated', async () => {
    await ctx.executor.execute({ id: 'a', name: 'upstream', arguments: {} });
    await breakers.open('tenanted:acme');
    await breakers.isolate('guarded');
    expect(indicator.isReady('tools')).toEqual({
      tools: {
        status: 'up',
        breakers: { upstream: 'closed', 'tenanted:acme': 'open', guarded: 'isolated' },
        open: ['tenanted:acme', 'guarded'],
        half_open: [],
        degraded: true,
        critical_open: [],
      },
    });
    await expect(ready()).resolves.toMatchObject({ status: 'ok' });
    // isHealthy is the same readiness check, kept for existing probes.
    expect(indicator.isHealthy('tools')).toEqual(indicator.isReady('tools'));
  });

  it('lists half-open breakers as degraded, and is not degraded once they closed', async () => {
    await breakers.open('upstream');
    await ctx.clock.advanceBy(10_000);
    expect(indicator.isReady()).toMatchObject({
      toolshield: { status: 'up', half_open: ['upstream'], open: [], degraded: true },
    });
    await ctx.executor.execute({ id: 'probe', name: 'upstream', arguments: {} });
    expect(indicator.isReady()).toMatchObject({
      toolshield: { status: 'up', breakers: { upstream: 'closed' }, degraded: false },
    });
  });

  it('is down while the breaker of a tool declared @Tool({ critical: true }) is open', async () => {
    await breakers.open('search');
    await expect(ready()).resolves.toMatchObject({ status: 'ok' });
    await breakers.open('payments');
    const failure = await ready().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: {
        tools: { status: 'down', open: ['search', 'payments'], critical_open: ['payments'] },
      },
    });
  });

  it('is down while a breaker named critical by the caller is open: a tool, a keyed tool or a shared breaker', async () => {
    await breakers.open('tenanted:acme');
    expect(indicator.isReady('t', { critical: ['stock'] })).toMatchObject({ t: { status: 'up' } });
    expect(indicator.isReady('t', { critical: ['tenanted'] })).toMatchObject({
      t: { status: 'down', critical_open: ['tenanted:acme'] },
    });
    await breakers.isolate('billing-api');
    expect(indicator.isReady('t', { critical: ['billing-api'] })).toMatchObject({
      t: { status: 'down', critical_open: ['billing-api'] },
    });
    // A tool that shares a breaker makes that breaker critical.
    expect(indicator.isReady('t', { critical: ['invoices'] })).toMatchObject({
      t: { status: 'down', critical_open: ['billing-api'] },
    });
  });

  it('refuses critical names that are no tool and no breaker, and malformed options', () => {
    expect(() => indicator.isReady('t', { critical: ['paymnets'] })).toThrow(InvalidOptionsError);
    expect(() => indicator.isReady('t', { critical: ['paymnets'] })).toThrow(
      /critical\[0\] must be the name of a tool or of a shared breaker, got 'paymnets'/,
    );
    expect(() => indicator.isReady('t', { critical: 'payments' as never })).toThrow(
      /critical must be/,
    );
    expect(() => indicator.isReady('t', { critcal: [] } as never)).toThrow(/critcal/);
  });

  it('reports liveness apart from the breakers: alive while every breaker is open', async () => {
    await breakers.open('payments');
    await breakers.open('search');
    expect(indicator.isAlive('live')).toEqual({ live: { status: 'up' } });
    await expect(health.check([() => indicator.isAlive()])).resolves.toMatchObject({
      status: 'ok',
    });
  });
});
