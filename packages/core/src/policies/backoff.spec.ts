import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { backoffDelay, resolveBackoff, type BackoffJitter } from './backoff.js';

const jitters: BackoffJitter[] = ['full', 'decorrelated', 'none'];

describe('backoffDelay', () => {
  it('is always within [0, cap] for any base, cap, jitter, retry and random value', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.constantFrom(...jitters),
        fc.integer({ min: 1, max: 5_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 1e8, noNaN: true }), { nil: undefined }),
        (baseMs, capMs, jitter, retry, r, previous) => {
          const delay = backoffDelay(
            resolveBackoff({ baseMs, capMs, jitter, random: () => r }),
            retry,
            previous,
          );
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(capMs);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('doubles from the base without jitter, up to the cap', () => {
    const backoff = resolveBackoff({ baseMs: 100, capMs: 1_000, jitter: 'none' });
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(backoff, retry))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  it('full jitter scales the exponential delay by the random value', () => {
    const backoff = resolveBackoff({
      baseMs: 100,
      capMs: 10_000,
      jitter: 'full',
      random: () => 0.5,
    });
    expect(backoffDelay(backoff, 3)).toBe(200);
  });

  it('decorrelated jitter draws between the base and three times the previous delay', () => {
    const low = resolveBackoff({ baseMs: 100, capMs: 10_000, random: () => 0 });
    const high = resolveBackoff({ baseMs: 100, capMs: 10_000, random: () => 0.999_999 });
    expect(backoffDelay(low, 2, 400)).toBe(100);
    expect(backoffDelay(high, 2, 400)).toBeCloseTo(1_200, 0);
    expect(backoffDelay(high, 1)).toBeCloseTo(300, 0);
  });

  it('defaults to decorrelated jitter with a 500 ms base and a 10 s cap', () => {
    const { baseMs, capMs, jitter } = resolveBackoff();
    expect({ baseMs, capMs, jitter }).toEqual({
      baseMs: 500,
      capMs: 10_000,
      jitter: 'decorrelated',
    });
  });
});
