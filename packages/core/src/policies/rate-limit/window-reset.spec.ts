import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { WindowReset } from './window-reset.js';

/**
 * A run of refusals: the last refused call sent at `lastRefusedAt`, the next success sent at
 * `successAt` (each answered 2 ms later).
 */
function runEndingAt(reset: WindowReset, lastRefusedAt: number, successAt: number): void {
  reset.refused(lastRefusedAt + 2, lastRefusedAt);
  reset.succeeded(successAt + 2, successAt);
}

describe('WindowReset', () => {
  it('knows nothing before runs of refusals agree', () => {
    const reset = new WindowReset();
    expect(reset.next(0)).toBeUndefined();
    runEndingAt(reset, 1_980, 2_010);
    runEndingAt(reset, 4_970, 5_020);
    expect(reset.next(5_100)).toBeUndefined();
  });

  it('takes the point of the second where three runs of refusals ended as the reset, no earlier than it', () => {
    const reset = new WindowReset();
    runEndingAt(reset, 1_980, 2_010); // (980, 10]
    runEndingAt(reset, 4_990, 5_040); // (990, 40]
    runEndingAt(reset, 7_960, 8_005); // (960, 5]
    // The three share 990–5 ms past a whole second: the reset is no later than 5 ms past.
    expect(reset.next(8_500)).toBe(9_005);
    expect(reset.next(9_005)).toBe(10_005);
  });

  it('bounds the start of the window a call fell in from below by the stretch the runs shared', () => {
    const reset = new WindowReset();
    runEndingAt(reset, 1_980, 2_010);
    runEndingAt(reset, 4_990, 5_040);
    runEndingAt(reset, 7_960, 8_005);
    // The reset falls in (990, 5]: a call sent at 9_600 fell in a window started after 8_990.
    expect(reset.earliestStart(9_600)).toBe(8_990);
    expect(reset.earliestStart(10_004)).toBe(8_990);
    expect(new WindowReset().earliestStart(9_600)).toBeUndefined();
  });

  it('learns a reset anywhere in the second, and again after one that moved', () => {
    const reset = new WindowReset();
    for (const second of [1, 2, 3]) runEndingAt(reset, second * 1_000 + 380, second * 1_000 + 420);
    expect(reset.next(3_500)).toBe(4_420);
    for (const second of [4, 5, 6]) runEndingAt(reset, second * 1_000 + 700, second * 1_000 + 730);
    expect(reset.next(6_800)).toBe(7_730);
  });

  it('ignores a run whose end is placed no closer than 400 ms', () => {
    const reset = new WindowReset();
    runEndingAt(reset, 1_500, 2_010);
    runEndingAt(reset, 2_990, 3_010);
    runEndingAt(reset, 3_990, 4_010);
    expect(reset.next(4_100)).toBeUndefined();
    runEndingAt(reset, 4_990, 5_010);
    expect(reset.next(5_100)).toBe(6_010);
  });

  it('forgets the reset when a call sent just after it is refused (not a fixed window)', () => {
    const reset = new WindowReset();
    for (const second of [1, 2, 3]) runEndingAt(reset, second * 1_000 - 20, second * 1_000 + 10);
    expect(reset.next(3_500)).toBe(4_010);
    // Refused while sending at the end of the window: the reset holds.
    reset.refused(3_952, 3_950);
    expect(reset.next(3_960)).toBe(4_010);
    // Refused 100 ms after it: a fixed window would just have admitted it.
    reset.refused(4_112, 4_110);
    expect(reset.next(4_120)).toBeUndefined();
  });

  it('pauses a refused call until the first reset after its send: not at all when that passed while the answer came', () => {
    const reset = new WindowReset();
    for (const second of [1, 2, 3]) runEndingAt(reset, second * 1_000 - 20, second * 1_000 + 10);
    // Sent at 3,950 and answered at 3,960: until the reset at 4,010.
    expect(reset.waitFor(3_960, 3_950)).toBe(50);
    // Sent at 4,000 (the window still full) and answered at 4,030, after the reset: no pause.
    expect(reset.waitFor(4_030, 4_000)).toBe(0);
    expect(new WindowReset().waitFor(4_030, 4_000)).toBeUndefined();
  });

  it('has the first refusal of a run wait only for a reset within 250 ms; the next refusals for any', () => {
    const reset = new WindowReset();
    for (const second of [1, 2, 3]) runEndingAt(reset, second * 1_000 - 20, second * 1_000 + 10);
    // Refused 600 ms before the reset: a window filled early, or a reset learnt wrongly.
    reset.refused(3_412, 3_410);
    expect(reset.waitFor(3_412, 3_410)).toBeUndefined();
    // Refused again: the window is full; wait for its reset.
    reset.refused(3_462, 3_460);
    expect(reset.waitFor(3_462, 3_460)).toBe(548);
  });

  it('does not learn again from a run of refusals that ended by waiting for the reset learnt', () => {
    const reset = new WindowReset();
    for (const second of [1, 2, 3]) runEndingAt(reset, second * 1_000 - 20, second * 1_000 + 10);
    // Each wait ends at the reset (10 ms past), and the first call after is sent a little
    // later each time: recorded, those ends would move the reset later and later.
    for (const [second, late] of [
      [4, 12],
      [5, 15],
      [6, 18],
    ] as const) {
      reset.refused(second * 1_000 - 18, second * 1_000 - 20);
      expect(reset.waitFor(second * 1_000 - 18, second * 1_000 - 20)).toBe(28);
      reset.succeeded(second * 1_000 + late + 2, second * 1_000 + late);
    }
    expect(reset.next(6_500)).toBe(7_010);
  });

  it('places the reset learnt at or after the true one, no later than the earliest success after it, and the earliest start of a window at or before it (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 300 })), {
          minLength: 3,
          maxLength: 3,
        }),
        (phase, gaps) => {
          // A run's end placed no closer than 400 ms says too little (the case above).
          fc.pre(gaps.every(([before, after]) => before + after <= 400));
          const reset = new WindowReset();
          // Runs ending around a true reset at `phase`: a refusal `before` ms ahead of it and a
          // success `after` ms past it, in successive seconds.
          gaps.forEach(([before, after], index) => {
            const trueReset = (index + 1) * 1_000 + phase;
            runEndingAt(reset, trueReset - before, trueReset + after);
          });
          const next = reset.next(4_000 + phase + 1);
          expect(next).toBeDefined();
          // The reset learnt is at or after the true one, and within the narrowest run's end.
          const latest = Math.min(...gaps.map(([, after]) => after));
          const past = ((((next ?? 0) - phase) % 1_000) + 1_000) % 1_000;
          expect(past).toBeLessThanOrEqual(latest + 5);
          // A call sent past the reset learnt fell in a window started at its earliest at or
          // before the true reset, and no earlier than the last refused call of every run.
          const earliest = reset.earliestStart(4_000 + phase + latest + 10) ?? Number.NaN;
          expect(earliest).toBeLessThanOrEqual(4_000 + phase);
          const nearest = Math.min(...gaps.map(([before]) => before));
          expect(earliest).toBeGreaterThanOrEqual(4_000 + phase - nearest - 5);
        },
      ),
      { seed: 26, numRuns: 300 },
    );
  });
});
