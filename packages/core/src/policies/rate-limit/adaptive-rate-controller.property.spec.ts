import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { AdaptiveRateController } from './adaptive-rate-controller.js';
import { RateLimiter } from './rate-limiter.js';
import type { UpstreamRateSignals } from './upstream-rate-signals.js';

type Step =
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'success'; readonly signals?: UpstreamRateSignals }
  | { readonly kind: 'refusal'; readonly signals: UpstreamRateSignals };

const signals: fc.Arbitrary<UpstreamRateSignals> = fc.record(
  {
    retryAfterMs: fc.integer({ min: 0, max: 5_000 }),
    limit: fc.integer({ min: 1, max: 1_000 }),
    windowMs: fc.constantFrom(1_000, 60_000),
    remaining: fc.integer({ min: 0, max: 10 }),
    resetMs: fc.integer({ min: 0, max: 5_000 }),
  },
  { requiredKeys: [] },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3_000 }) }),
  fc.record({ kind: fc.constant('success' as const), signals }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constant('refusal' as const), signals }),
);

describe('AdaptiveRateController properties', () => {
  it('keeps the rate finite, within [minRate, maxRate], at or under the last announced limit, and below minRate only as low as an announced limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 1, max: 500, noNaN: true }),
        fc.array(step),
        async (start, steps) => {
          const clock = new VirtualClock({ startMs: 0 });
          const limiter = new RateLimiter('upstream', { rate: start }, clock);
          const controller = new AdaptiveRateController(limiter, clock, {
            minRate: 0.5,
            maxRate: 2_000,
          });
          let announced = Number.POSITIVE_INFINITY;
          let lowest = announced;
          for (const next of steps) {
            if (next.kind === 'wait') await clock.advanceBy(next.ms);
            else if (next.kind === 'success') controller.onSuccess(next.signals);
            else controller.onRefusal(next.signals);
            const said = next.kind === 'wait' ? undefined : next.signals;
            if (said?.limit !== undefined && said.windowMs !== undefined) {
              announced = (said.limit * 1000) / said.windowMs;
              lowest = Math.min(lowest, announced);
            }
            expect(Number.isFinite(limiter.rate)).toBe(true);
            expect(limiter.rate).toBeGreaterThanOrEqual(Math.min(0.5, lowest) - 1e-9);
            expect(limiter.rate).toBeLessThanOrEqual(Math.min(2_000, announced) + 1e-9);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
