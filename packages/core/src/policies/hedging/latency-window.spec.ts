import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { LatencyWindow } from './latency-window.js';

interface Sample {
  readonly ms: number;
  readonly atLeast: boolean;
}

const sample: fc.Arbitrary<Sample> = fc.record({
  ms: fc.integer({ min: 1, max: 1_000 }),
  atLeast: fc.boolean(),
});
const quantile = fc.constantFrom(0.5, 0.9, 0.95, 0.99);

function windowOf(samples: readonly Sample[], q: number, size = 256): LatencyWindow {
  const window = new LatencyWindow(size, q);
  for (const { ms, atLeast } of samples) window.record(ms, atLeast);
  return window;
}

describe('LatencyWindow', () => {
  it('counts a first attempt that lost to its hedge as lasting at least the call', () => {
    // Two calls whose hedge answered at 15 ms: their first attempts ran longer than 15 ms.
    const samples = [10, 20, 30, 40].map((ms) => ({ ms, atLeast: false }));
    samples.push({ ms: 15, atLeast: true }, { ms: 15, atLeast: true });
    expect(windowOf(samples, 0.5).percentile()).toBe(30);
    // Taken as exact, they would give 20.
    expect(
      windowOf(
        samples.map(({ ms }) => ({ ms, atLeast: false })),
        0.5,
      ).percentile(),
    ).toBe(20);
  });

  it('is the sample quantile of the last `size` durations when none is censored', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000 }), { minLength: 1 }),
        quantile,
        (durations, q) => {
          const window = windowOf(
            durations.map((ms) => ({ ms, atLeast: false })),
            q,
            64,
          );
          const kept = durations.slice(-64).sort((a, b) => a - b);
          expect(window.percentile()).toBe(kept[Math.floor(q * kept.length)]);
        },
      ),
    );
  });

  it('is never below the estimate that takes censored durations as exact, and never above the longest', () => {
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 300 }), quantile, (samples, q) => {
        const estimate = windowOf(samples, q).percentile();
        const kept = samples.slice(-256);
        const naive = windowOf(
          kept.map(({ ms }) => ({ ms, atLeast: false })),
          q,
        ).percentile();
        expect(estimate).toBeGreaterThanOrEqual(naive);
        expect(estimate).toBeLessThanOrEqual(Math.max(...kept.map(({ ms }) => ms)));
      }),
    );
  });
});
