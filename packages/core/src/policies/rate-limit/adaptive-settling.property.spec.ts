import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { UpstreamModelOptions } from '../../../test/support/limited-upstream-model.js';
import { runLimitChange } from '../../../test/support/simulated-upstream.js';

const upstreams = fc.constantFrom<UpstreamModelOptions>(
  { counting: 'sliding-log', headers: 'retry-after-seconds' },
  { counting: 'sliding-log', headers: 'none' },
  { counting: 'fixed-window', headers: 'none' },
  { counting: 'fixed-window', headers: 'retry-after-seconds' },
  { counting: 'fixed-window', headers: 'x-ratelimit' },
  { counting: 'fixed-window', headers: 'ietf' },
  { counting: 'token-bucket', headers: 'retry-after-ms', burst: 5 },
  { counting: 'token-bucket', headers: 'retry-after-seconds', burst: 2 },
  { counting: 'token-bucket', headers: 'ietf', burst: 10 },
  { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
  { counting: 'token-bucket', headers: 'x-ratelimit', burst: 2 },
);

/**
 * Fixed windows that answer a refusal with a whole-second `Retry-After` (alone, or beside
 * `X-RateLimit-*`) cost most: each probe past the limit fills a window early, every caller is
 * refused until its reset and then waits the whole second the header rounds to, so the next
 * window starts late. Over 16,000 random runs (three samples) the most refused was 15.4 % for
 * such a window (13.2 % with `X-RateLimit-*`, whose `remaining` count brings the mean from 7 %
 * to 3.7 %), 8.1 % for a window saying nothing, 7.3 % for any other upstream; the least
 * admitted over the last ten seconds was 69.6 % of the limit, for such a window (one run, the
 * others at 80 % or more). The bounds below sit above what was measured.
 */
const roundsRetryAfterUp = ({ counting, headers }: UpstreamModelOptions) =>
  counting === 'fixed-window' && (headers === 'retry-after-seconds' || headers === 'x-ratelimit');

/** The share of calls refused, past 20 (slow start's overshoot), a kind of upstream may cost. */
const refusedShare = (upstream: UpstreamModelOptions) => {
  if (roundsRetryAfterUp(upstream)) return 0.17;
  return upstream.counting === 'fixed-window' && upstream.headers === 'none' ? 0.09 : 0.08;
};

/** The least share of the limit admitted over the last ten seconds. */
const settledShare = (upstream: UpstreamModelOptions) => (roundsRetryAfterUp(upstream) ? 0.6 : 0.7);

describe('the default rate controller against the kinds of upstream (virtual time)', () => {
  it('whatever the callers (20-40), the limiter burst, the starting guess, the kind of upstream and how its answers vary, settles near an unknown limit within 10 s and refuses few calls (the bounds per kind of upstream above)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          limit: fc.integer({ min: 20, max: 120 }),
          /** The starting guess, as a share of the limit. */
          guess: fc.double({ min: 0.2, max: 3, noNaN: true }),
          burst: fc.integer({ min: 1, max: 2 }),
          callers: fc.integer({ min: 20, max: 40 }),
          latencyJitterMs: fc.integer({ min: 0, max: 30 }),
          seed: fc.integer({ min: 1, max: 1_000 }),
        }),
        upstreams,
        async ({ limit, guess, burst, callers, latencyJitterMs, seed }, upstream) => {
          const result = await runLimitChange(new VirtualClock({ startMs: 0 }), {
            phases: [limit],
            phaseMs: 20_000,
            callers,
            startRate: guess * limit,
            burst,
            upstream,
            latencyJitterMs,
            seed,
          });
          const lastTen = result.acceptedPerSecond
            .slice(10, 20)
            .reduce((sum, accepted) => sum + (accepted ?? 0), 0);
          const calls = result.accepted + result.refused;
          expect(result.refused).toBeLessThanOrEqual(refusedShare(upstream) * calls + 20);
          expect(lastTen).toBeGreaterThanOrEqual(settledShare(upstream) * limit * 10);
          expect(lastTen).toBeLessThanOrEqual(1.05 * limit * 10);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('whatever its tuning, stays within 50-105 % of the limit and refuses under a fifth of the calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          limit: fc.integer({ min: 20, max: 120 }),
          callers: fc.integer({ min: 20, max: 40 }),
          growth: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
          decreaseFactor: fc.double({ min: 0.5, max: 0.9, noNaN: true }),
          decreaseCooldownMs: fc.integer({ min: 200, max: 2_000 }),
        }),
        upstreams,
        async ({ limit, callers, ...adaptive }, upstream) => {
          const result = await runLimitChange(new VirtualClock({ startMs: 0 }), {
            phases: [limit],
            phaseMs: 20_000,
            callers,
            startRate: 10,
            adaptive,
            upstream,
          });
          const lastTen = result.acceptedPerSecond
            .slice(10, 20)
            .reduce((sum, accepted) => sum + (accepted ?? 0), 0);
          expect(result.refused).toBeLessThanOrEqual(0.2 * (result.accepted + result.refused));
          expect(lastTen).toBeGreaterThanOrEqual(0.5 * limit * 10);
          expect(lastTen).toBeLessThanOrEqual(1.05 * limit * 10);
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);
});
