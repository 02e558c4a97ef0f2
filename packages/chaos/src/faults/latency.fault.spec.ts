import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import fc from 'fast-check';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { latency, sampleLatency, type LatencyDistribution } from './latency.fault.js';

describe('sampleLatency', () => {
  it('returns the fixed delay and stays inside a uniform range', () => {
    expect(sampleLatency({ kind: 'fixed', ms: 250 }, () => 0.9)).toBe(250);
    expect(sampleLatency({ kind: 'uniform', minMs: 100, maxMs: 300 }, () => 0)).toBe(100);
    expect(sampleLatency({ kind: 'uniform', minMs: 100, maxMs: 300 }, () => 0.5)).toBe(200);
  });

  it('keeps heavy tails between their floor and their cap for any draw', () => {
    const heavy: LatencyDistribution[] = [
      { kind: 'log-normal', medianMs: 200, sigma: 1.5, capMs: 30_000 },
      { kind: 'pareto', minMs: 50, alpha: 1.1, capMs: 30_000 },
    ];
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (u) => {
        for (const distribution of heavy) {
          const delay = sampleLatency(distribution, () => u);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(30_000);
        }
        expect(sampleLatency(heavy[1] as LatencyDistribution, () => u)).toBeGreaterThanOrEqual(50);
      }),
    );
  });

  it('has a median near medianMs and a tail far beyond it (log-normal)', () => {
    let state = 1;
    const random = () => (state = (Math.imul(state, 48271) >>> 0) % 0x7fffffff) / 0x7fffffff;
    const samples = Array.from({ length: 4001 }, () =>
      sampleLatency({ kind: 'log-normal', medianMs: 200, sigma: 1, capMs: 1e9 }, random),
    ).sort((a, b) => a - b);
    expect(samples[2000]).toBeGreaterThan(170);
    expect(samples[2000]).toBeLessThan(230);
    expect(samples[3960]).toBeGreaterThan(1500); // the 99th percentile: about 200 * e^2.33
  });

  it('refuses nonsense when the fault is created', () => {
    expect(() => latency({ kind: 'fixed', ms: -1 })).toThrow(RangeError);
    expect(() => latency({ kind: 'uniform', minMs: 5, maxMs: 1 })).toThrow(/minMs <= maxMs/);
    expect(() => latency({ kind: 'pareto', minMs: 10, alpha: 0, capMs: 100 })).toThrow(/alpha/);
  });
});

describe('latency', () => {
  it('waits on the clock, then calls the tool: 30 s of virtual time cost nothing real', async () => {
    const clock = new VirtualClock();
    const run = runFault(latency({ kind: 'fixed', ms: 30_000 }), { clock, output: 'ok' });
    await clock.advanceBy(29_999);
    expect(run.toolCalls()).toBe(0);
    await clock.advanceBy(1);
    await expect(run.promise).resolves.toBe('ok');
    expect(run.toolCalls()).toBe(1);
    expect(clock.now()).toBe(30_000);
  });

  it('ends early with the signal reason when the call is aborted, without calling the tool', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const run = runFault(latency({ kind: 'fixed', ms: 30_000 }), {
      clock,
      context: { signal: controller.signal },
    });
    await clock.advanceBy(1_000);
    const reason = new Error('attempt timed out');
    controller.abort(reason);
    expect(await rejectionOf(run.promise)).toBe(reason);
    expect(run.toolCalls()).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });
});
