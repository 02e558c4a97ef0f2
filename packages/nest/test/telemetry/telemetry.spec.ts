import { afterEach, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import {
  ToolCircuitBreakers,
  ToolExecutor,
  ToolShieldModule,
  type ToolShieldModuleOptions,
} from '../../src/index.js';
import {
  ToolShieldTelemetry,
  ToolShieldTelemetryModule,
  type ToolShieldTelemetryOptions,
} from '../../src/telemetry/index.js';
import { settle } from '../policies/fixtures/drive.js';
import { FlakyTools } from '../policies/fixtures/flaky.tools.js';
import { FakeMeterProvider, FakeTracerProvider } from './fake-otel.js';

async function app(
  options: ToolShieldTelemetryOptions = {},
  moduleOptions: ToolShieldModuleOptions = {},
) {
  const clock = new VirtualClock({ startMs: 1_000 });
  const moduleRef = await Test.createTestingModule({
    imports: [
      ToolShieldModule.forRoot({ ...moduleOptions, isGlobal: true, clock }),
      ToolShieldTelemetryModule.forRoot(options),
    ],
    providers: [FlakyTools],
  }).compile();
  moduleRef.useLogger(false);
  Logger.overrideLogger(false);
  await moduleRef.init();
  const tools = moduleRef.get(FlakyTools);
  const executor = moduleRef.get(ToolExecutor);
  const call = (name: string, steps: FlakyTools['steps'], id = 'call_1') => {
    tools.steps = [...steps];
    return settle(clock, executor.execute({ id, name, arguments: {} }));
  };
  return { moduleRef, clock, call, telemetry: moduleRef.get(ToolShieldTelemetry) };
}

describe('ToolShieldTelemetryModule (@toolshield/nest/telemetry)', () => {
  afterEach(() => {
    trace.disable();
    metrics.disable();
  });

  it('records nothing and does not subscribe when no SDK is registered', async () => {
    const ctx = await app();
    expect(ctx.telemetry.active).toBe(false);
    expect(await ctx.call('idempotent', ['ok'])).toMatchObject({ success: true });
    await ctx.moduleRef.close();
  });

  it('traces a call and its attempts with the GenAI tool-execution conventions, through the global provider', async () => {
    const tracing = new FakeTracerProvider();
    expect(trace.setGlobalTracerProvider(tracing)).toBe(true);
    const ctx = await app();
    expect(ctx.telemetry.active).toBe(true);
    expect(await ctx.call('idempotent', ['econnreset', 'ok'])).toMatchObject({ success: true });

    const [callSpan, first, second] = tracing.spans;
    expect(tracing.spans).toHaveLength(3);
    expect(callSpan?.name).toBe('execute_tool idempotent');
    expect(callSpan?.options).toMatchObject({ kind: 0, startTime: 1_000 });
    expect(callSpan?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'idempotent',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'toolshield.attempts': 2,
    });
    expect(callSpan?.status).toBeUndefined();
    expect(first).toMatchObject({ name: 'tool_attempt idempotent', parent: callSpan });
    expect(first?.attributes).toMatchObject({ 'toolshield.attempt': 1, 'error.type': 'network' });
    expect(first?.attributes['gen_ai.operation.name']).toBeUndefined();
    expect(first?.status?.code).toBe(SpanStatusCode.ERROR);
    expect(second?.attributes).toMatchObject({ 'toolshield.attempt': 2 });
    expect(second?.attributes['error.type']).toBeUndefined();
    expect(second?.options.startTime).toBeGreaterThanOrEqual(first?.endTime as number);
    expect(callSpan?.endTime).toBe(ctx.clock.now());
    expect(second?.endTime).toBe(callSpan?.endTime);
    await ctx.moduleRef.close();
  });

  it('marks a failed call with error.type, its status and the retry facts', async () => {
    const tracing = new FakeTracerProvider();
    const ctx = await app({ tracerProvider: tracing, attemptSpans: false });
    expect(await ctx.call('retryable', [{ retryAfter: '600' }])).toMatchObject({
      errorType: 'rate_limited',
    });
    expect(tracing.spans).toHaveLength(1);
    expect(tracing.spans[0]?.attributes).toMatchObject({
      'error.type': 'rate_limited',
      'toolshield.retry_count': 0,
      'toolshield.recoverable': true,
      'toolshield.retry_after_ms': 600_000,
    });
    expect(tracing.spans[0]?.status).toMatchObject({
      code: SpanStatusCode.ERROR,
      message: expect.any(String),
    });
    await ctx.moduleRef.close();
  });

  it('records call durations in seconds, attempts, retries and breaker transitions', async () => {
    const metering = new FakeMeterProvider();
    expect(metrics.setGlobalMeterProvider(metering)).toBe(true);
    const ctx = await app();
    expect(ctx.telemetry.active).toBe(true);
    await ctx.call('idempotent', ['unavailable', 'ok']);
    await ctx.call('quick', ['hang'], 'call_2');
    await ctx.moduleRef.get(ToolCircuitBreakers).open('upstream');

    expect(metering.units.get('gen_ai.execute_tool.duration')).toBe('s');
    const durations = metering.of('gen_ai.execute_tool.duration');
    expect(durations[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'idempotent',
    });
    expect(durations[1]).toEqual({
      instrument: 'gen_ai.execute_tool.duration',
      // The retry before it waits a jittered, fractional number of virtual milliseconds.
      value: expect.closeTo(0.05, 9),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'quick',
        'error.type': 'timeout',
      },
    });
    expect(metering.of('toolshield.tool.attempts').map((m) => m.value)).toEqual([2, 1]);
    expect(metering.of('toolshield.tool.retries')).toEqual([
      {
        instrument: 'toolshield.tool.retries',
        value: 1,
        attributes: { 'gen_ai.tool.name': 'idempotent', 'error.type': 'upstream_unavailable' },
      },
    ]);
    expect(metering.of('toolshield.breaker.transitions')).toEqual([
      {
        instrument: 'toolshield.breaker.transitions',
        value: 1,
        attributes: {
          'gen_ai.tool.name': 'upstream',
          'toolshield.breaker.from': 'closed',
          'toolshield.breaker.to': 'open',
        },
      },
    ]);
    await ctx.moduleRef.close();
  });

  it('counts the retries the retry budget withheld, and marks them on the call span', async () => {
    const metering = new FakeMeterProvider();
    const tracing = new FakeTracerProvider();
    metrics.setGlobalMeterProvider(metering);
    trace.setGlobalTracerProvider(tracing);
    const spent = { retryBudget: { minRetriesPerSecond: 0, burst: 0 } };
    const ctx = await app({}, { defaults: { retry: spent } });
    await ctx.call('idempotent', ['unavailable']);

    expect(metering.of('toolshield.tool.retries_withheld')).toEqual([
      {
        instrument: 'toolshield.tool.retries_withheld',
        value: 1,
        attributes: { 'gen_ai.tool.name': 'idempotent', 'error.type': 'upstream_unavailable' },
      },
    ]);
    expect(metering.of('toolshield.tool.retries')).toEqual([]);
    expect(tracing.spans[0]?.events).toEqual([
      {
        name: 'toolshield.retry.withheld',
        attributes: {
          'toolshield.retry_budget.key': 'idempotent',
          'error.type': 'upstream_unavailable',
        },
      },
    ]);
    await ctx.moduleRef.close();
  });

  it('ends the spans of calls still running when the application closes', async () => {
    const tracing = new FakeTracerProvider();
    const ctx = await app({ tracerProvider: tracing });
    tracing.spans.length = 0;
    ctx.moduleRef.get(FlakyTools).steps = ['hang'];
    const pending = ctx.moduleRef
      .get(ToolExecutor)
      .execute({ id: 'late', name: 'once', arguments: {} });
    await ctx.clock.advanceBy(5);
    await ctx.moduleRef.close();
    expect(tracing.spans.map((span) => span.endTime)).toEqual([1_005, 1_005]);
    void pending;
  });
});
