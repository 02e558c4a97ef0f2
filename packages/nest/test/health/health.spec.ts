import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { ToolShieldHealthIndicator } from '../../src/health/index.js';
import { ToolCircuitBreakers } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { FlakyTools } from '../policies/fixtures/flaky.tools.js';

describe('ToolShieldHealthIndicator (@toolshield/nest/health)', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let indicator: ToolShieldHealthIndicator;
  let health: HealthCheckService;
  let breakers: ToolCircuitBreakers;
  const ready = () => health.check([() => indicator.isHealthy('tools')]);

  beforeEach(async () => {
    ctx = await createToolApp(
      [FlakyTools, ToolShieldHealthIndicator],
      {},
      { imports: [TerminusModule.forRoot({ logger: false })] },
    );
    indicator = ctx.moduleRef.get(ToolShieldHealthIndicator);
    health = ctx.moduleRef.get(HealthCheckService);
    breakers = ctx.moduleRef.get(ToolCircuitBreakers);
  });
  afterEach(() => ctx.close());

  it('is up with no breaker used yet, and with closed breakers', async () => {
    expect(indicator.isHealthy()).toEqual({ toolshield: { status: 'up', breakers: {}, open: [] } });
    await ctx.executor.execute({ id: 'a', name: 'upstream', arguments: {} });
    await expect(ready()).resolves.toMatchObject({
      status: 'ok',
      info: { tools: { status: 'up', breakers: { upstream: 'closed' }, open: [] } },
    });
  });

  it('is down while a breaker is open or isolated, with every breaker by key', async () => {
    await ctx.executor.execute({ id: 'a', name: 'upstream', arguments: {} });
    await breakers.open('tenanted:acme');
    await breakers.isolate('guarded');
    expect(indicator.isHealthy('tools')).toEqual({
      tools: {
        status: 'down',
        breakers: { upstream: 'closed', 'tenanted:acme': 'open', guarded: 'isolated' },
        open: ['tenanted:acme', 'guarded'],
      },
    });
    const failure = await ready().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: { tools: { status: 'down', open: ['tenanted:acme', 'guarded'] } },
    });
  });

  it('is degraded while a breaker is half-open, and up again once it closed', async () => {
    await breakers.open('upstream');
    await ctx.clock.advanceBy(10_000);
    expect(indicator.isHealthy()).toMatchObject({
      toolshield: { status: 'degraded', breakers: { upstream: 'half_open' } },
    });
    await ctx.executor.execute({ id: 'probe', name: 'upstream', arguments: {} });
    expect(indicator.isHealthy()).toMatchObject({
      toolshield: { status: 'up', breakers: { upstream: 'closed' } },
    });
  });
});
