import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { type ToolOutcome } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import fc from 'fast-check';
import { Tool, ToolCircuitBreakers, ToolExecutor, ToolShieldModule } from '../../src/index.js';
import { ToolShieldTelemetryModule } from '../../src/telemetry/index.js';
import { ResilienceMetrics } from '../../src/telemetry/resilience-metrics.js';
import { settle } from '../policies/fixtures/drive.js';
import { FlakyTools, type Step } from '../policies/fixtures/flaky.tools.js';
import { FakeMeterProvider } from './fake-otel.js';

@Injectable()
class PacedTools {
  @Tool({ name: 'paced', description: 'One call a second.', rateLimit: { rate: 1, burst: 1 } })
  paced() {
    return 'ok';
  }
}

async function app(metering: FakeMeterProvider) {
  const clock = new VirtualClock({ startMs: 1_000 });
  const moduleRef = await Test.createTestingModule({
    imports: [
      ToolShieldModule.forRoot({ isGlobal: true, clock }),
      ToolShieldTelemetryModule.forRoot({ meterProvider: metering }),
    ],
    providers: [FlakyTools, PacedTools],
  }).compile();
  moduleRef.useLogger(false);
  Logger.overrideLogger(false);
  await moduleRef.init();
  const executor = moduleRef.get(ToolExecutor);
  const call = (name: string, steps: FlakyTools['steps'] = [], id = 'call_1') => {
    moduleRef.get(FlakyTools).steps = [...steps];
    return settle(clock, executor.execute({ id, name, arguments: {} }));
  };
  return { moduleRef, clock, call };
}

describe('the resilience metrics of @toolshield/nest/telemetry', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('counts calls by outcome and error.type and times each attempt without the waits', async () => {
    const metering = new FakeMeterProvider();
    const ctx = await app(metering);
    close = () => ctx.moduleRef.close();
    await ctx.call('idempotent', [{ slowMs: 30 }, 'ok']);
    await ctx.call('idempotent', ['unavailable', { slowMs: 20 }], 'call_2');
    await ctx.call('quick', ['hang'], 'call_3');

    expect(metering.units.get('toolshield.tool.calls')).toBe('{call}');
    // Cumulative, one series per tool and outcome (an observable counter tallied in-process).
    expect(metering.of('toolshield.tool.calls').map((m) => [m.value, m.attributes])).toEqual([
      [
        2,
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'idempotent',
          'toolshield.outcome': 'success',
        },
      ],
      [
        1,
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'quick',
          'toolshield.outcome': 'failure',
          'error.type': 'timeout',
        },
      ],
    ]);
    const attempts = metering.of('toolshield.tool.attempt.duration');
    expect(metering.units.get('toolshield.tool.attempt.duration')).toBe('s');
    // call_2: a failed attempt, a backoff wait (not counted), then a 20 ms attempt.
    // The backoff's jitter leaves the clock at a fractional millisecond, so a duration is
    // a difference of two such readings: compared to the nanosecond, not bit for bit.
    expect(attempts.map((m) => [m.attributes?.['error.type'], m.value])).toEqual([
      [undefined, expect.closeTo(0.03, 9)],
      ['upstream_unavailable', expect.closeTo(0, 9)],
      [undefined, expect.closeTo(0.02, 9)],
      ['timeout', expect.closeTo(0.05, 9)],
    ]);
  });

  it('times each attempt once, whatever the call did (property over scripted failures)', async () => {
    const metering = new FakeMeterProvider();
    const ctx = await app(metering);
    close = () => ctx.moduleRef.close();
    const step = fc.constantFrom<Step>(
      'ok',
      'econnreset',
      'unavailable',
      'rate_limited',
      'invalid',
      'bug',
      { slowMs: 15 },
      { retryAfter: '0' },
    );
    const outcomes: ToolOutcome[] = [];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('idempotent', 'once', 'retryable'),
        fc.array(step, { maxLength: 5 }),
        async (tool, steps) => {
          outcomes.push((await ctx.call(tool, steps, `call_${n++}`)) as ToolOutcome);
        },
      ),
      { numRuns: 60 },
    );
    const attempts = metering.of('toolshield.tool.attempt.duration');
    const made = outcomes.reduce((total, outcome) => total + outcome.metadata.attempts, 0);
    expect(made).toBeGreaterThan(outcomes.length); // some calls were retried
    expect(attempts).toHaveLength(made);
    expect(attempts.every((m) => m.value >= 0)).toBe(true);
    const calls = metering.of('toolshield.tool.calls');
    expect(calls.reduce((total, m) => total + m.value, 0)).toBe(outcomes.length);
    // No series for an outcome no call ended with (a failed attempt alone is no call).
    expect(calls.every((m) => m.value > 0)).toBe(true);
  });

  it('reports each breaker state per key as a gauge', async () => {
    const metering = new FakeMeterProvider();
    const ctx = await app(metering);
    close = () => ctx.moduleRef.close();
    expect(metering.observe('toolshield.breaker.state')).toEqual([]);
    await ctx.moduleRef.get(ToolCircuitBreakers).open('upstream');
    const observed = metering.observe('toolshield.breaker.state');
    expect(observed.filter((m) => m.value === 1).map((m) => m.attributes)).toEqual([
      {
        'toolshield.breaker.key': 'upstream',
        'gen_ai.tool.name': 'upstream',
        'toolshield.breaker.state': 'open',
      },
    ]);
    expect(observed.map((m) => m.attributes?.['toolshield.breaker.state'])).toEqual([
      'closed',
      'open',
      'half_open',
      'isolated',
    ]);
    await ctx.moduleRef.get(ToolCircuitBreakers).close('upstream');
    expect(
      metering.observe('toolshield.breaker.state').find((m) => m.value === 1)?.attributes,
    ).toMatchObject({ 'toolshield.breaker.state': 'closed' });
  });

  it('counts the waits at a client-side rate limiter with how long each expected to wait', async () => {
    const metering = new FakeMeterProvider();
    const ctx = await app(metering);
    close = () => ctx.moduleRef.close();
    const executor = ctx.moduleRef.get(ToolExecutor);
    const both = ['a', 'b'].map((id) => executor.execute({ id, name: 'paced', arguments: {} }));
    await settle(ctx.clock, Promise.all(both));
    const attributes = { 'gen_ai.tool.name': 'paced', 'toolshield.rate_limit.key': 'paced' };
    expect(metering.of('toolshield.rate_limit.waits')).toEqual([
      { instrument: 'toolshield.rate_limit.waits', value: 1, attributes },
    ]);
    expect(metering.of('toolshield.rate_limit.wait.duration')).toEqual([
      { instrument: 'toolshield.rate_limit.wait.duration', value: 1, attributes },
    ]);
  });

  it('counts injected faults and reports the current rate of each limiter', () => {
    const metering = new FakeMeterProvider();
    const metrics = new ResilienceMetrics(metering.getMeter(), (name) => name);
    const base = { at: 1, callId: 'c', tool: 'search' };
    metrics.handle({ ...base, type: 'chaos.injected', fault: 'latency', rule: 'slow' });
    metrics.handle({ ...base, type: 'chaos.injected', fault: 'error' });
    metrics.handle({ at: 2, type: 'rate_limit.changed', key: 'api', rate: 4, reason: 'x' });
    metrics.handle({ at: 3, type: 'rate_limit.changed', key: 'api', rate: 2.5, reason: 'y' });
    expect(metering.of('toolshield.chaos.injections').map((m) => m.attributes)).toEqual([
      {
        'gen_ai.tool.name': 'search',
        'toolshield.chaos.fault': 'latency',
        'toolshield.chaos.rule': 'slow',
      },
      { 'gen_ai.tool.name': 'search', 'toolshield.chaos.fault': 'error' },
    ]);
    expect(metering.observe('toolshield.rate_limit.rate')).toEqual([
      {
        instrument: 'toolshield.rate_limit.rate',
        value: 2.5,
        attributes: { 'toolshield.rate_limit.key': 'api' },
      },
    ]);
  });
});
