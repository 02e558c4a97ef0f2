import { afterEach, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import fc from 'fast-check';
import { ToolExecutor, ToolRegistry, ToolShieldModule } from '../../src/index.js';
import {
  ToolShieldMetrics,
  ToolShieldTelemetryModule,
  UNKNOWN_TOOL_LABEL,
} from '../../src/telemetry/index.js';
import { settle } from '../policies/fixtures/drive.js';
import { FlakyTools } from '../policies/fixtures/flaky.tools.js';
import { FakeMeterProvider, FakeTracerProvider } from './fake-otel.js';

async function app() {
  const clock = new VirtualClock({ startMs: 1_000 });
  const metering = new FakeMeterProvider();
  const tracing = new FakeTracerProvider();
  const moduleRef = await Test.createTestingModule({
    imports: [
      ToolShieldModule.forRoot({ isGlobal: true, clock }),
      ToolShieldTelemetryModule.forRoot({ meterProvider: metering, tracerProvider: tracing }),
    ],
    providers: [FlakyTools],
  }).compile();
  moduleRef.useLogger(false);
  Logger.overrideLogger(false);
  await moduleRef.init();
  const executor = moduleRef.get(ToolExecutor);
  let calls = 0;
  // A call of an unknown tool ends at once; a known one may wait on the virtual clock.
  const call = (name: string) => {
    calls += 1;
    return settle(clock, executor.execute({ id: `call_${calls}`, name, arguments: {} }));
  };
  const callUnknown = (name: string) => {
    calls += 1;
    return executor.execute({ id: `call_${calls}`, name, arguments: {} });
  };
  return { moduleRef, metering, tracing, call, callUnknown, registry: moduleRef.get(ToolRegistry) };
}

/** Per instrument (and span kind), how many series it has: distinct attribute sets or span names. */
function seriesCounts({ metering, tracing }: Awaited<ReturnType<typeof app>>): Map<string, number> {
  const series = new Map<string, Set<string>>();
  const add = (of: string, one: string) => series.set(of, (series.get(of) ?? new Set()).add(one));
  for (const instrument of Object.values(ToolShieldMetrics)) {
    for (const { attributes } of metering.of(instrument))
      add(instrument, JSON.stringify(attributes));
  }
  for (const span of tracing.spans) {
    add(
      `${span.name.split(' ')[0]} span`,
      `${span.name} ${String(span.attributes['gen_ai.tool.name'])}`,
    );
  }
  return new Map([...series].map(([of, all]) => [of, all.size]));
}

describe('labels a model cannot grow (@toolshield/nest/telemetry)', () => {
  let ctx: Awaited<ReturnType<typeof app>> | undefined;
  afterEach(() => ctx?.moduleRef.close());

  it('records calls of tools that do not exist under one label value', async () => {
    ctx = await app();
    await ctx.call('idempotent');
    await ctx.call('book_flight_v2');

    const calls = ctx.metering.of(ToolShieldMetrics.CALLS).map((m) => m.attributes);
    expect(calls).toContainEqual(
      expect.objectContaining({
        'gen_ai.tool.name': UNKNOWN_TOOL_LABEL,
        'error.type': 'tool_not_found',
      }),
    );
    expect(JSON.stringify(ctx.metering.measurements)).not.toContain('book_flight_v2');
    const span = ctx.tracing.spans.find((s) => s.attributes['gen_ai.tool.name'] === '_unknown');
    expect(span?.name).toBe('execute_tool _unknown');
    // The name the model asked for stays on its call's span, which nothing aggregates.
    expect(span?.attributes['toolshield.tool.requested_name']).toBe('book_flight_v2');
  });

  it('adds at most one series however many tool names a model invents', async () => {
    ctx = await app();
    const current = ctx;
    await current.call('idempotent');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 40 }),
        async (invented) => {
          const names = invented.filter((name) => current.registry.get(name) === undefined);
          const before = seriesCounts(current);
          for (const name of names) await current.callUnknown(name);
          const grown = [...seriesCounts(current)].filter(
            ([of, count]) => count > (before.get(of) ?? 0) + 1,
          );
          expect(grown).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  });
});
