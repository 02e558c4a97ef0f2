import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Clock } from '../../clock/clock.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { RateLimiter } from './rate-limiter.js';
import { withLateTimers } from '../../testing/late-timers.js';

/** A virtual clock whose timers fire `latenessMs(n)` late (n counts the timers set). */
function lateClock(latenessMs: (n: number) => number): { clock: Clock; virtual: VirtualClock } {
  const virtual = new VirtualClock();
  return { clock: withLateTimers(virtual, latenessMs), virtual };
}

/** Queues `calls` at once on a limiter on `clock`; resolves with when each left, in order. */
async function departures(
  { clock, virtual }: ReturnType<typeof lateClock>,
  options: { rate: number; burst?: number; deliveryJitterMs?: number },
  calls: number,
): Promise<number[]> {
  const limiter = new RateLimiter('api', { ...options, maxWaitMs: 600_000 }, clock);
  const left: number[] = [];
  const all = Array.from({ length: calls }, () =>
    limiter.acquire().then(() => left.push(virtual.now())),
  );
  // Until every call left: timers late by up to three intervals may stretch each turn to four
  // (a fixed advance of calls + 1 intervals and a minute left a slow rate waiting forever).
  const intervalMs = 1000 / options.rate;
  const giveUpAt = virtual.now() + calls * 10 * intervalMs + 60_000;
  while (left.length < calls && virtual.now() < giveUpAt) await virtual.advanceBy(intervalMs);
  expect(left).toHaveLength(calls);
  await Promise.all(all);
  return left;
}

describe('RateLimiter with timers that fire late', () => {
  it('keeps its rate when every timer fires 2 ms late (the lateness is not lost at each call)', async () => {
    const left = await departures(
      lateClock(() => 2),
      { rate: 50 },
      101,
    );
    // 100 intervals of 20 ms; losing 2 ms at each call would end at 2,200 ms.
    expect(left.at(-1)).toBeLessThanOrEqual(2_002);
  });

  it('does not make up a stall with calls back to back: half an interval at most', async () => {
    const left = await departures(
      lateClock((n) => (n === 5 ? 300 : 0)),
      { rate: 50 },
      20,
    );
    const gaps = left.slice(1).map((at, i) => at - (left[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(10);
    // The stall is lost, less the half interval made up.
    expect(left.at(-1)).toBe(19 * 20 + 300 - 10);
  });

  it('holds every call a whole interval after the one before when the limit is held at the upstream (deliveryJitterMs)', async () => {
    const left = await departures(
      lateClock((n) => (n % 2 === 0 ? 8 : 0)),
      { rate: 50, deliveryJitterMs: 20 },
      20,
    );
    const gaps = left.slice(1).map((at, i) => at - (left[i] as number));
    // Paced at 50 × 1000 / 1020 a second: 20.4 ms apart, never closer.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20.4 - 1e-9);
  });

  it('over any rate, burst and lateness: lets out no more than burst + 1/2 + window x rate in any window, and loses no lateness up to half an interval', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 4 }),
        // Each timer's lateness, in intervals: up to a half (a timer's) or up to three (a stall).
        fc.oneof(fc.constant(0.5), fc.constant(3)),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        async (rate, burst, most, shares) => {
          const intervalMs = 1000 / rate;
          const lateness = shares.map((share) => share * most * intervalMs);
          const pick = (n: number) => lateness[n % lateness.length] as number;
          const calls = 30;
          const left = await departures(lateClock(pick), { rate, burst }, calls);
          left.forEach((first, i) =>
            left.slice(i).forEach((last, count) => {
              const windowMs = last - first;
              expect(count + 1).toBeLessThanOrEqual(burst + 0.5 + (windowMs * rate) / 1000 + 1e-9);
            }),
          );
          if (most <= 0.5) {
            const onTime = (calls - burst) * intervalMs;
            expect(left.at(-1)).toBeLessThanOrEqual(onTime + Math.max(...lateness) + 1e-6);
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);
});
