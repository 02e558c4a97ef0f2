import { describe, expect, it } from '@jest/globals';
import { runNeeded, shouldOpen } from './opening-decision.js';

describe('shouldOpen', () => {
  it('opens when the failure share passes the threshold with enough calls', () => {
    expect(shouldOpen({ successes: 4, failures: 5, run: 1 }, 10, 50)).toBe(false);
    expect(shouldOpen({ successes: 5, failures: 5, run: 1 }, 10, 50)).toBe(false);
    expect(shouldOpen({ successes: 4, failures: 6, run: 1 }, 10, 50)).toBe(true);
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
});
