import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Logger, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type ToolCallContext, type ToolFailure } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { VirtualClock } from '@toolshield/core/testing';
import { TOOLSHIELD_CLOCK, Tool, ToolCall, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { InventoryAppModule, InventoryTools } from '../../test/fixtures/inventory.tools.js';
import { hang } from '../faults/hang.fault.js';
import { latency } from '../faults/latency.fault.js';
import { networkError } from '../faults/network-error.fault.js';
import { rateLimit } from '../faults/rate-limit.fault.js';
import { ChaosInProductionError } from '../runtime/production-guard.js';
import type { ChaosModuleOptions } from './chaos-module-options.interface.js';
import { ChaosModule } from './chaos.module.js';
import { ChaosService } from './chaos.service.js';

let moduleRef: TestingModule | undefined;
afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

async function createApp(chaos: ReturnType<typeof ChaosModule.forRoot>) {
  const clock = new VirtualClock();
  moduleRef = await Test.createTestingModule({ imports: [InventoryAppModule, chaos] })
    .overrideProvider(TOOLSHIELD_CLOCK)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(false);
  Logger.overrideLogger(false);
  await moduleRef.init();
  const executor = moduleRef.get(ToolExecutor);
  const events: ToolEvent[] = [];
  executor.events$.subscribe((event) => events.push(event));
  const run = async (name: string, id: string) => {
    const pending = executor.execute({ id, name, arguments: { sku: 'A-1' } });
    await clock.runAll();
    return pending;
  };
  return {
    clock,
    events,
    run,
    chaos: moduleRef.get(ChaosService),
    tools: moduleRef.get(InventoryTools),
  };
}

const env = { NODE_ENV: 'test' };

describe('ChaosModule', () => {
  it('is off by default: tools run untouched', async () => {
    const app = await createApp(ChaosModule.forRoot({ env, rules: [{ fault: networkError() }] }));
    expect(app.chaos.enabled).toBe(false);
    await expect(app.run('reserve_item', 'c1')).resolves.toMatchObject({ success: true });
    expect(app.chaos.counters().calls).toBe(0);
  });

  it('injects innermost: the retry policy meets the fault and the failure is marked', async () => {
    const app = await createApp(
      ChaosModule.forRoot({
        env,
        enabled: true,
        seed: 7,
        rules: [{ name: 'reset', tools: 'lookup_*', fault: networkError('ECONNRESET') }],
      }),
    );
    const failure = (await app.run('lookup_stock', 'c1')) as ToolFailure;
    expect(failure).toMatchObject({
      success: false,
      errorType: 'network',
      retryCount: 2,
      retryMax: 2,
      metadata: { chaos: true, chaosFault: 'network:ECONNRESET', chaosRule: 'reset' },
    });
    expect(app.tools.invocations).toHaveLength(0);
    const injected = app.events.filter((event) => event.type === 'chaos.injected');
    expect(injected).toHaveLength(3);
    expect(injected[0]).toMatchObject({
      callId: 'c1',
      tool: 'lookup_stock',
      rule: 'reset',
      attempt: 1,
      chaos: true,
    });
    expect(app.events.filter((event) => event.type === 'attempt.failed')).toEqual(
      expect.arrayContaining([expect.objectContaining({ attempt: 1, chaos: true })]),
    );
    expect(app.chaos.counters()).toMatchObject({
      calls: 3,
      injections: 3,
      byTool: { lookup_stock: 3 },
    });
  });

  it('lets a Retry-After wait pass in virtual time, and a hang end at the attempt timeout', async () => {
    const app = await createApp(
      ChaosModule.forRoot({
        env,
        enabled: true,
        rules: [
          { tools: 'lookup_stock', fault: rateLimit({ retryAfterSeconds: 30 }), firstN: 1 },
          { tools: 'reserve_item', fault: hang() },
        ],
      }),
    );
    await expect(app.run('lookup_stock', 'c1')).resolves.toMatchObject({
      success: true,
      metadata: { attempts: 2 },
    });
    expect(app.clock.now()).toBe(30_000);
    // The timeout is the policy's own: the hang shows on the events, not in the failure.
    await expect(app.run('reserve_item', 'c2')).resolves.toMatchObject({ errorType: 'timeout' });
    expect(app.clock.now()).toBe(60_000);
    expect(app.events).toContainEqual(
      expect.objectContaining({ type: 'chaos.injected', callId: 'c2', fault: 'timeout' }),
    );
  });

  it('registers @Chaos() rules for their tool only', async () => {
    const app = await createApp(ChaosModule.forRoot({ env, enabled: true }));
    expect(app.chaos.rules().map((rule) => [rule.id, rule.rule.tools])).toEqual([
      ['quote-down', 'price_quote'],
    ]);
    await expect(app.run('price_quote', 'c1')).resolves.toMatchObject({
      errorType: 'upstream_unavailable',
      metadata: { chaosRule: 'quote-down' },
    });
    await expect(app.run('price_quote', 'c2')).resolves.toMatchObject({ success: true });
    await expect(app.run('reserve_item', 'c3')).resolves.toMatchObject({ success: true });
  });

  it('is controlled at run time through ChaosService', async () => {
    const app = await createApp(ChaosModule.forRoot({ env, seed: 3 }));
    expect(app.chaos.seed).toBe(3);
    const id = app.chaos.addRule({ tools: 'reserve_item', fault: networkError('ECONNREFUSED') });
    app.chaos.enable();
    await expect(app.run('reserve_item', 'c1')).resolves.toMatchObject({ errorType: 'network' });
    expect(app.chaos.removeRule(id)).toBe(true);
    await expect(app.run('reserve_item', 'c2')).resolves.toMatchObject({ success: true });
    app.chaos.setRules([{ fault: networkError() }]);
    app.chaos.disable();
    await expect(app.run('reserve_item', 'c3')).resolves.toMatchObject({ success: true });
    expect(app.chaos.counters()).toMatchObject({ calls: 2, injections: 1 });
    const seen: string[] = [];
    app.chaos.onInjected((event) => seen.push(event.callId));
    app.chaos.reset();
    app.chaos.enable();
    await app.run('reserve_item', 'c4');
    expect(seen).toEqual(['c4']);
  });

  it('refuses to start enabled in production unless allowed', async () => {
    const production = { NODE_ENV: 'production' };
    await expect(
      createApp(ChaosModule.forRoot({ env: production, enabled: true })),
    ).rejects.toBeInstanceOf(ChaosInProductionError);
    const app = await createApp(
      ChaosModule.forRoot({ env: production, enabled: true, allowInProduction: true }),
    );
    expect(app.chaos.enabled).toBe(true);
  });

  it('takes its options asynchronously and can be global', async () => {
    @Module({ providers: [{ provide: 'CHAOS_SEED', useValue: 99 }], exports: ['CHAOS_SEED'] })
    class ConfigModule {}
    const app = await createApp(
      ChaosModule.forRootAsync({
        isGlobal: true,
        imports: [ConfigModule],
        inject: ['CHAOS_SEED'],
        useFactory: (seed: number): ChaosModuleOptions => ({ env, seed, enabled: true }),
      }),
    );
    expect(app.chaos).toMatchObject({ seed: 99, enabled: true });
  });

  it("gives a hedged tool's attempts their own signal: the losing attempt's injected latency ends with it", async () => {
    @Injectable()
    class PageTools {
      readonly invocations: ToolCallContext[] = [];
      @Tool({
        name: 'read_page',
        description: 'Reads a page.',
        idempotent: true,
        annotations: { readOnlyHint: true },
        hedging: { delayMs: 50, maxExtraShare: 1 },
      })
      read(_args: unknown, @ToolCall() call: ToolCallContext) {
        this.invocations.push(call);
        return 'page';
      }
    }
    @Module({ imports: [ToolShieldModule.forRoot()], providers: [PageTools] })
    class PageModule {}
    const clock = new VirtualClock();
    moduleRef = await Test.createTestingModule({
      imports: [
        PageModule,
        ChaosModule.forRoot({
          env,
          enabled: true,
          rules: [{ fault: latency({ kind: 'fixed', ms: 1_000 }), firstN: 1 }],
        }),
      ],
    })
      .overrideProvider(TOOLSHIELD_CLOCK)
      .useValue(clock)
      .compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    const pending = moduleRef
      .get(ToolExecutor)
      .execute({ id: 'c1', name: 'read_page', arguments: {} });
    await clock.advanceBy(50);
    await expect(pending).resolves.toMatchObject({
      success: true,
      metadata: { hedge: { afterMs: 50, won: true } },
    });
    await clock.runAll();
    // The first attempt's 1 s of latency was cut short when the hedge won: it never ran the tool.
    expect(moduleRef.get(PageTools).invocations).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });
});
