import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { RateLimiter } from './rate-limiter.js';

interface Arrival {
  readonly gapMs: number;
  readonly maxWaitMs: number;
  readonly abortAfterMs?: number;
}

const arrival: fc.Arbitrary<Arrival> = fc.record(
  {
    gapMs: fc.integer({ min: 0, max: 300 }),
    maxWaitMs: fc.integer({ min: 0, max: 3_000 }),
    abortAfterMs: fc.integer({ min: 0, max: 2_000 }),
  },
  { requiredKeys: ['gapMs', 'maxWaitMs'] },
);

/** Runs the arrivals through a limiter in virtual time; returns when each call left, in arrival order. */
async function simulate(rate: number, burst: number, arrivals: readonly Arrival[]) {
  const clock = new VirtualClock();
  const limiter = new RateLimiter('upstream', { rate, burst }, clock);
  const left: { id: number; at: number }[] = [];
  const settled: Promise<unknown>[] = [];
  for (const [id, call] of arrivals.entries()) {
    await clock.advanceBy(call.gapMs);
    const controller = new AbortController();
    if (call.abortAfterMs !== undefined)
      clock.setTimer(() => controller.abort(), call.abortAfterMs);
    settled.push(
      limiter
        .acquire({ signal: controller.signal, deadlineMs: clock.now() + call.maxWaitMs })
        .then(() => left.push({ id, at: clock.now() }))
        .catch((error: { type?: string }) =>
          expect(['rate_limited', 'cancelled']).toContain(error.type),
        ),
    );
  }
  await clock.advanceBy(10_000);
  await Promise.all(settled);
  return { left, queued: limiter.queued };
}

describe('RateLimiter properties', () => {
  it('never lets more than burst + window x rate calls out in any window, in arrival order, and settles every call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(arrival, { maxLength: 30 }),
        async (rate, burst, arrivals) => {
          const { left, queued } = await simulate(rate, burst, arrivals);
          expect(queued).toBe(0);
          left.forEach((first, i) =>
            left.slice(i).forEach((last, count) => {
              const windowMs = last.at - first.at;
              expect(count + 1).toBeLessThanOrEqual(burst + (windowMs * rate) / 1000 + 1e-9);
            }),
          );
          const ids = left.map((call) => call.id);
          expect(ids).toEqual([...ids].sort((a, b) => a - b));
        },
      ),
      { numRuns: 100 },
    );
    // Each run advances a virtual clock macrotask by macrotask: slow on a busy machine.
  }, 60_000);
});
