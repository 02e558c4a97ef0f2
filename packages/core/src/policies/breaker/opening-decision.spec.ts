import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { runNeeded, shouldOpen, wilsonLowerBound } from './opening-decision.js';

describe('shouldOpen', () => {
  it('opens on a real majority of failures but not on a chance one', () => {
    expect(shouldOpen({ successes: 4, failures: 6, run: 1 }, 10, 50)).toBe(false);
    expect(shouldOpen({ successes: 5, failures: 35, run: 1 }, 10, 50)).toBe(true);
  });

  it('opens on a run of failures that is improbable after healthy traffic', () => {
    expect(runNeeded({ successes: 30, failures: 0, run: 0 })).toBe(4);
    expect(shouldOpen({ successes: 30, failures: 4, run: 4 }, 10, 50)).toBe(true);
    expect(shouldOpen({ successes: 30, failures: 3, run: 3 }, 10, 50)).toBe(false);
  });

  it('asks more of a tool that is flaky anyway, and of a cold breaker', () => {
    expect(runNeeded({ successes: 70, failures: 30, run: 0 })).toBe(12);
    expect(runNeeded({ successes: 0, failures: 0, run: 0 })).toBe(20);
  });

  it('a dead upstream opens a cold breaker within 20 calls', () => {
    const opensAt = Array.from({ length: 20 }, (_, i) => i + 1).find((n) =>
      shouldOpen({ successes: 0, failures: n, run: n }, 10, 50),
    );
    expect(opensAt).toBeLessThanOrEqual(20);
  });

  it('the Wilson bound stays within [0, share] and grows with evidence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (calls, share) => {
          const failures = Math.round(share * calls);
          const bound = wilsonLowerBound(failures, calls, 3.09);
          expect(bound).toBeGreaterThanOrEqual(0);
          expect(bound).toBeLessThanOrEqual(failures / calls + 1e-12);
          expect(wilsonLowerBound(failures * 2, calls * 2, 3.09)).toBeGreaterThanOrEqual(
            bound - 1e-12,
          );
        },
      ),
    );
  });
});
