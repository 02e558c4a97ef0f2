import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { InvalidOptionsError } from '../../options/invalid-options.error.js';
import type { RateController } from './rate-controller.js';
import { RateLimiter, type RateLimitEvent } from './rate-limiter.js';
import type { RateLimitOptions } from './rate-limit-options.js';

/** An adaptive limiter on a virtual clock, and the pauses it tells. */
function adaptive(options: RateLimitOptions = { rate: 10, adaptive: true }) {
  const clock = new VirtualClock({ startMs: 0 });
  const pauses: number[] = [];
  const observe = (event: RateLimitEvent) =>
    event.kind === 'paused' ? pauses.push(event.untilMs - clock.now()) : undefined;
  const limiter = new RateLimiter('api', options, clock, observe);
  /** `count` admitted calls spread evenly over `ms`. */
  const admit = async (count: number, ms: number) => {
    for (let call = 0; call < count; call++) {
      await clock.advanceBy(ms / count);
      limiter.admitted();
    }
  };
  return { clock, limiter, pauses, admit };
}

describe('the default rate controller (adaptive: true)', () => {
  it('takes the limit the upstream announces (RateLimit-Policy q/w) as the rate, up or down, and probes no further', async () => {
    const { limiter, admit } = adaptive();
    limiter.admitted({ limit: 100, windowMs: 60_000 });
    expect(limiter.rate).toBeCloseTo(100 / 60);
    limiter.admitted({ limit: 30, windowMs: 1_000 });
    expect(limiter.rate).toBe(30);
    await admit(60, 2_000);
    expect(limiter.rate).toBe(30);
  });

  it('pauses every caller for a Retry-After: a precise one all of it, one in whole seconds a second less', () => {
    const { limiter, pauses } = adaptive();
    limiter.refused({ retryAfterMs: 250 });
    limiter.refused({ retryAfterMs: 3_000, retryAfterInWholeSeconds: true }, -1);
    expect(pauses).toEqual([250, 2_000]);
  });

  it('doubles the rate every second before the first refusal (slow start)', async () => {
    const { limiter, admit } = adaptive();
    await admit(15, 1_000);
    expect(limiter.rate).toBeGreaterThan(18);
    expect(limiter.rate).toBeLessThan(22);
  });

  it("slows to 95 % of what the upstream admitted over the last second at a refusal, pausing four calls' time", async () => {
    const { limiter, pauses } = adaptive({ rate: 40, adaptive: true });
    limiter.refused();
    // Nothing admitted to measure: by decreaseFactor.
    expect(limiter.rate).toBeCloseTo(28);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeCloseTo(4_000 / 28);
    const measured = adaptive({ rate: 40, adaptive: true });
    await measured.admit(30, 1_000);
    measured.limiter.refused();
    expect(measured.limiter.rate).toBeCloseTo(0.95 * 30, 0);
  });

  it('answers refusals of calls sent before a slow-down (echoes) with pauses, not further cuts', async () => {
    const { clock, limiter, pauses, admit } = adaptive({ rate: 40, adaptive: true });
    await admit(30, 1_000);
    const sentBefore = clock.now();
    await clock.advanceBy(5);
    limiter.refused();
    const slowed = limiter.rate;
    limiter.refused({}, sentBefore);
    limiter.refused({}, sentBefore);
    expect(limiter.rate).toBe(slowed);
    // Refused again before anything was admitted: the upstream is still full, twice as long.
    limiter.refused();
    limiter.refused();
    expect(limiter.rate).toBe(slowed);
    expect(pauses.at(-1)).toBeCloseTo(2 * (pauses.at(-2) as number), 0);
  });

  it('re-reads the measure at a refusal within a second of a slow-down instead of cutting 5 % again (a full log refuses for a second after a probe past it)', async () => {
    const { limiter, admit } = adaptive({ rate: 60, adaptive: true });
    await admit(50, 1_000);
    limiter.refused();
    expect(limiter.rate).toBeCloseTo(47.5, 0);
    for (let refusal = 0; refusal < 3; refusal++) {
      await admit(5, 100);
      limiter.refused();
    }
    expect(limiter.rate).toBeCloseTo(47.5, 0);
  });

  it('probes back to the ceiling and past it along a cubic, then ramps again once 10 % past it', async () => {
    const { limiter, admit } = adaptive({ rate: 60, adaptive: true });
    limiter.refused(); // out of slow start
    await admit(55, 1_100);
    limiter.refused();
    expect(limiter.rate).toBeCloseTo(47.5, 0);
    await admit(25, 500);
    expect(limiter.rate).toBeGreaterThan(0.97 * 50);
    expect(limiter.rate).toBeLessThan(50);
    await admit(60, 1_000);
    expect(limiter.rate).toBeGreaterThan(50);
    // Admitted well past the ceiling for a second: the limit rose, slow start looks for it.
    const before = limiter.rate;
    await admit(70, 1_000);
    expect(limiter.rate).toBeGreaterThan(before + 20);
  });

  it('leaving slow start, returns to at least 80 % of the rate it reached: the last second lags a doubling ramp', async () => {
    const { limiter, admit } = adaptive({ rate: 60, adaptive: true });
    await admit(40, 1_000);
    const reached = limiter.rate;
    limiter.refused();
    expect(limiter.rate).toBeLessThan(0.5 * reached); // 95 % of half the ramp, at the least
    await admit(60, 1_500);
    expect(limiter.rate).toBeGreaterThan(0.79 * reached);
  });

  it("slows before a refusal when a bucket's remaining count runs out", async () => {
    const { limiter, admit } = adaptive({ rate: 60, adaptive: true });
    for (const remaining of [5, 4, 3, 2, 1]) {
      await admit(10, 200);
      limiter.admitted({ remaining, limit: 10 });
    }
    const before = limiter.rate;
    limiter.admitted({ remaining: 0, limit: 10 });
    expect(limiter.rate).toBeLessThan(before);
  });

  it('stays within minRate and maxRate', async () => {
    const low = adaptive({ rate: 1, adaptive: { minRate: 0.8 } });
    low.limiter.refused();
    expect(low.limiter.rate).toBe(0.8);
    const high = adaptive({ rate: 10, adaptive: { maxRate: 12 } });
    await high.admit(40, 2_000);
    expect(high.limiter.rate).toBe(12);
  });

  it('refuses an option it does not know, naming the ones it has', () => {
    const options = { rate: 10, adaptive: { growht: 0.1 } } as unknown as RateLimitOptions;
    expect(() => adaptive(options)).toThrow(InvalidOptionsError);
    expect(() => adaptive(options)).toThrow(/growht.*decreaseCooldownMs, growth/);
  });
});

describe('a RateController of your own (adaptive: controller)', () => {
  it('is told every answer and its decisions move the limiter', () => {
    const told: string[] = [];
    const controller: RateController = {
      admitted: ({ signals }) => void told.push(`admitted ${signals.remaining ?? ''}`),
      refused: ({ nowMs }) => {
        told.push('refused');
        return { rate: 2, kind: 'slowed', reason: 'mine', pauseUntilMs: nowMs + 500 };
      },
      adopt: ({ rate }) => rate,
    };
    const { limiter, pauses } = adaptive({ rate: 10, adaptive: controller });
    limiter.admitted({ remaining: 3 });
    limiter.refused();
    expect(told).toEqual(['admitted 3', 'refused']);
    expect(limiter.rate).toBe(2);
    expect(pauses).toEqual([500]);
  });
});
