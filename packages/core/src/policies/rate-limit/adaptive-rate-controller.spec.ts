import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { AdaptiveRateController } from './adaptive-rate-controller.js';
import { RateLimiter } from './rate-limiter.js';

function adaptive(rate: number) {
  const clock = new VirtualClock({ startMs: 0 });
  const limiter = new RateLimiter('upstream', { rate }, clock);
  const controller = new AdaptiveRateController(limiter, clock);
  return { clock, limiter, controller };
}

describe('AdaptiveRateController', () => {
  it('grows the rate with successes until the first refusal (slow start)', () => {
    const { limiter, controller } = adaptive(10);
    for (let i = 0; i < 10; i++) controller.onSuccess();
    expect(limiter.rate).toBeCloseTo(30);
  });

  it('pauses every caller for the Retry-After of a refusal and slows to what the upstream let through', async () => {
    const { clock, limiter, controller } = adaptive(100);
    for (let i = 0; i < 40; i++) {
      await clock.advanceBy(25);
      controller.onSuccess();
    }
    controller.onRefusal({ retryAfterMs: 2_000 });
    expect(limiter.snapshot().nextAtMs).toBe(clock.now() + 2_000);
    // Slow start took the rate to 100 + 2 x 40 = 180. 40 went through in the last second, but
    // the ramp makes that low: never below half the rate, less a 10 % margin.
    expect(limiter.rate).toBeCloseTo(90 * 0.9);
  });

  it('counts refusals within the cooldown as one slow-down', async () => {
    const { clock, limiter, controller } = adaptive(50);
    controller.onRefusal();
    const once = limiter.rate;
    await clock.advanceBy(500);
    controller.onRefusal();
    expect(limiter.rate).toBe(once);
    await clock.advanceBy(600);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(once * 0.7);
  });

  it('caps the rate at a limit the upstream announces, pacing instead of waiting for a rounded reset', () => {
    const { clock, limiter, controller } = adaptive(200);
    controller.onSuccess({ limit: 50, windowMs: 1_000, remaining: 0, resetMs: 1_000 });
    expect(limiter.rate).toBe(50);
    expect(limiter.snapshot().nextAtMs).toBeLessThanOrEqual(clock.now() + 20);
    for (let i = 0; i < 100; i++) controller.onSuccess();
    expect(limiter.rate).toBe(50);
  });

  it('waits for the reset when nothing remains and the upstream did not say its window', () => {
    const { clock, limiter, controller } = adaptive(20);
    controller.onSuccess({ limit: 5_000, remaining: 0, resetMs: 90_000 });
    expect(limiter.snapshot().nextAtMs).toBe(clock.now() + 90_000);
  });

  it('after a slow-down, grows back along the cubic: slowly near the old rate, faster beyond it', async () => {
    const { clock, limiter, controller } = adaptive(50);
    controller.onSuccess();
    await clock.advanceBy(1_100);
    controller.onRefusal();
    const floor = limiter.rate;
    const rateAfter = async (ms: number) => {
      await clock.advanceBy(ms);
      controller.onSuccess();
      return limiter.rate;
    };
    const early = await rateAfter(1_000);
    const later = await rateAfter(1_000);
    const much = await rateAfter(2_000);
    expect(early).toBeGreaterThanOrEqual(floor);
    expect(later).toBeGreaterThan(early);
    expect(much - later).toBeGreaterThan(later - early);
  });
});
