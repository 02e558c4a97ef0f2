import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DEFAULT_RETRY_BUDGET } from './retry-budget-options.js';
import { drive, flakyTool, seededRandom } from './flaky-upstream.test.js';

const CALLS = 1_000;
/** The budget may cost a flaky upstream at most half a percentage point of goodput. */
const GOODPUT_SLACK = 0.005;

/**
 * The default budget against an upstream whose attempts fail independently at `failureRate`
 * (a default idempotent tool with 3 retries, no breaker), for one caller making 1,000 calls in
 * a row or 50 callers starting at once on a fresh budget (20 calls each).
 */
async function run(failureRate: number, callers: 1 | 50, seed: number) {
  const upstream = flakyTool(failureRate, seededRandom(seed), { breaker: false, timeoutMs: false });
  const load = await drive(upstream, callers, CALLS / callers);
  return { ...load, seconds: upstream.clock.now() / 1_000 };
}

describe('the default retry budget, from a healthy upstream to a dead one', () => {
  it('keeps the goodput of a flaky upstream, holds a dead one under 1.2 requests per call, and bounds the load in between', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(0, 0.3, 1), fc.double({ min: 0, max: 1, noNaN: true })),
        fc.constantFrom(1 as const, 50 as const),
        fc.integer(),
        async (failureRate, callers, seed) => {
          const load = await run(failureRate, callers, seed);
          const { burst, ratio, successRatio, minRetriesPerSecond } = DEFAULT_RETRY_BUDGET;
          // Healthy or flaky: a call the budget cut short is goodput lost to it.
          if (failureRate <= 0.3)
            expect(load.withheld).toBeLessThanOrEqual(GOODPUT_SLACK * load.calls);
          // Whatever the failure rate: the documented bound on what retries may add.
          const retries = load.requests - load.calls;
          const earned =
            burst +
            ratio * load.calls +
            successRatio * load.successes +
            minRetriesPerSecond * load.seconds;
          expect(retries).toBeLessThanOrEqual(earned + 1e-9);
          // Dead: the safe defaults' promise, a lone caller or 50 (about 1.1 plus `burst`).
          if (failureRate === 1) expect(load.requests / load.calls).toBeLessThanOrEqual(1.2);
        },
      ),
      { numRuns: 100 },
    );
  });
});
