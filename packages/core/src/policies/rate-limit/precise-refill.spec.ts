import { describe, expect, it } from '@jest/globals';
import { PreciseRefill } from './precise-refill.js';

describe('PreciseRefill', () => {
  /** `k` successes, then a refusal at `at` ms whose next token comes `waitMs` later. */
  const refusalAfter = (refill: PreciseRefill, k: number, at: number, waitMs: number) => {
    for (let call = 0; call < k; call++) refill.succeeded();
    return refill.refused({ retryAfterMs: waitMs }, at);
  };

  it('tells a steady refill (20 calls a second, measured twice alike) that moved', () => {
    const refill = new PreciseRefill();
    expect(refusalAfter(refill, 0, 0, 10)).toBe(false);
    // 20 calls moved the next token by one second, twice: 20 a second, steady.
    expect(refusalAfter(refill, 20, 1_000, 10)).toBe(false);
    expect(refusalAfter(refill, 20, 2_000, 10)).toBe(false);
    // Then 20 calls in 1.15 s: 17.4 a second, 13 % off.
    expect(refusalAfter(refill, 20, 3_150, 10)).toBe(true);
  });

  it('says nothing of a refill that never measured steady, nor of a move within 5 %', () => {
    const unsteady = new PreciseRefill();
    refusalAfter(unsteady, 0, 0, 10);
    refusalAfter(unsteady, 20, 1_000, 10);
    refusalAfter(unsteady, 19, 2_000, 10); // 19 a second: 5 % off, not steady
    expect(refusalAfter(unsteady, 20, 2_700, 10)).toBe(false);
    const steady = new PreciseRefill();
    for (const at of [0, 1_000, 2_000]) refusalAfter(steady, at === 0 ? 0 : 20, at, 10);
    expect(refusalAfter(steady, 20, 3_040, 10)).toBe(false); // 19.2 a second: 4 % off
  });

  it('measures nothing from a Retry-After in whole seconds, nor from too few successes', () => {
    const refill = new PreciseRefill();
    refusalAfter(refill, 0, 0, 10);
    refusalAfter(refill, 20, 1_000, 10);
    refusalAfter(refill, 20, 2_000, 10);
    for (let call = 0; call < 20; call++) refill.succeeded();
    expect(refill.refused({ retryAfterMs: 1_000, retryAfterInWholeSeconds: true }, 3_150)).toBe(
      false,
    );
    const few = new PreciseRefill();
    for (const at of [0, 1_000, 2_000]) refusalAfter(few, at === 0 ? 0 : 20, at, 10);
    expect(refusalAfter(few, 4, 3_000, 10)).toBe(false);
  });

  it('takes measurements a few ms apart for one steady refill (answers timed late on a loaded machine)', () => {
    const refill = new PreciseRefill();
    refusalAfter(refill, 0, 0, 10);
    // 40 calls each time, the second refusal's answer 6 ms late: 20 and 19.94 a second.
    refusalAfter(refill, 40, 2_000, 10);
    refusalAfter(refill, 40, 4_006, 10);
    expect(refusalAfter(refill, 20, 5_156, 10)).toBe(true);
  });
});
