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

/** Refused at 50 a second, then two seconds of successes at 50 a second, then refused again. */
async function slowedAfterTwoSecondsOfSuccesses() {
  const slowed = adaptive(50);
  const { clock, controller } = slowed;
  controller.onRefusal();
  for (let i = 0; i < 100; i++) {
    await clock.advanceBy(20);
    controller.onSuccess();
  }
  controller.onRefusal();
  return slowed;
}

describe('AdaptiveRateController', () => {
  it('doubles the rate every second until the first refusal (slow start), as the README says', async () => {
    // Before: +2 a success, the rate tripled in a second and slow start overshot a limit by
    // 15-40 refusals.
    const { clock, limiter, controller } = adaptive(10);
    const start = clock.now();
    while (clock.now() - start < 1_000) {
      await clock.advanceBy(1_000 / limiter.rate);
      controller.onSuccess();
    }
    expect(limiter.rate).toBeGreaterThan(18);
    expect(limiter.rate).toBeLessThan(22);
  });

  it('pauses every caller for the Retry-After of a refusal and slows to what the upstream let through', async () => {
    const { clock, limiter, controller } = adaptive(100);
    for (let i = 0; i < 40; i++) {
      await clock.advanceBy(25);
      controller.onSuccess();
    }
    controller.onRefusal({ retryAfterMs: 2_000 });
    expect(limiter.snapshot().nextAtMs).toBe(clock.now() + 2_000);
    // Slow start took the rate to 100 + 40 ln 2. 40 went through in the last second, but the
    // ramp makes that low: never below half the rate, less a 5 % margin.
    expect(limiter.rate).toBeCloseTo(((100 + 40 * Math.LN2) / 2) * 0.95);
  });

  it('pauses longer at each refusal in a row after a slow-down, without cutting the rate again', async () => {
    const { clock, limiter, controller } = adaptive(50);
    controller.onRefusal();
    const slowed = limiter.rate;
    const pauses: number[] = [];
    for (let refusal = 0; refusal < 3; refusal++) {
      await clock.advanceTo(limiter.snapshot().nextAtMs);
      controller.onRefusal();
      pauses.push(limiter.snapshot().nextAtMs - clock.now());
    }
    expect(limiter.rate).toBe(slowed);
    expect(pauses[0]).toBeGreaterThan(0);
    expect(pauses[1]).toBeCloseTo(2 * (pauses[0] as number));
    expect(pauses[2]).toBeCloseTo(4 * (pauses[0] as number));
  });

  it('refused again with no success between, bounds the limit by the last second of successes (a log or window that stays full: the limit fell)', async () => {
    // Before: the rate stayed at the first slow-down's (near the old limit) through the
    // pauses, and the calls resumed there, filling the log again at once.
    const { clock, limiter, controller } = await slowedAfterTwoSecondsOfSuccesses();
    const slowed = limiter.rate;
    expect(slowed).toBeGreaterThan(45);
    // Nothing admitted since: 700 ms on, the last second holds 300 ms of successes, 15.
    await clock.advanceBy(700);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(15 * 0.95);
    // Refused again, a success fewer in the last second: not enough under the bound to move.
    await clock.advanceBy(20);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(15 * 0.95);
    // Two more gone: more than a tenth under it, the bound and the rate follow.
    await clock.advanceBy(40);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(12 * 0.95);
  });

  it('once an echo bounded the limit, a refusal within the cooldown is an echo too, successes since or not (a full log admitting as its old entries age out)', async () => {
    // Before: each such refusal slowed down afresh, measuring the log's aging (the rate of a
    // second before), far under its limit: after a ramp overshot a sliding log, the rate fell
    // from 76 to 63 to 44 within 200 ms, and the rise to a raised limit took 5 s, not 2.
    const { clock, limiter, controller } = await slowedAfterTwoSecondsOfSuccesses();
    await clock.advanceBy(700);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(15 * 0.95);
    const echoPause = limiter.snapshot().nextAtMs - clock.now();
    // The log admits as many as age out, then refuses again.
    await clock.advanceTo(limiter.snapshot().nextAtMs);
    for (let i = 0; i < 10; i++) {
      await clock.advanceBy(10);
      controller.onSuccess();
    }
    const probing = limiter.rate;
    controller.onRefusal();
    expect(limiter.rate).toBe(probing);
    expect(limiter.snapshot().nextAtMs - clock.now()).toBeCloseTo(2 * echoPause);
  });

  it('takes the refusal of a call sent before the last slow-down for an echo of it, successes since or not', async () => {
    // Over HTTP a ramp past a sliding log's limit was refused, then, 20 ms later with answers
    // to other calls between, refused for calls still in flight from before: each taken for
    // news, the rate fell 95 → 67 → 47 against a limit of 80.
    const { clock, limiter, controller } = adaptive(50);
    for (let i = 0; i < 100; i++) {
      await clock.advanceBy(20);
      controller.onSuccess();
    }
    const sentBefore = clock.now();
    await clock.advanceBy(5);
    controller.onRefusal({}, sentBefore);
    const slowed = limiter.rate;
    await clock.advanceBy(5);
    controller.onSuccess();
    await clock.advanceBy(5);
    controller.onRefusal({}, sentBefore);
    // An echo: bounded by the last second's 51 successes, not cut by the factor (to 39.7).
    expect(limiter.rate).toBeCloseTo(51 * 0.95);
    // And paused as an echo is: two calls' time at the slowed rate.
    expect(limiter.snapshot().nextAtMs - clock.now()).toBeCloseTo(2_000 / slowed);
  });

  it('resumes halfway between the counts at the first success after an echo bounded a fallen limit (a log admitting again once under its limit)', async () => {
    // A ceiling of 50 a second, confirmed.
    const { clock, limiter, controller } = await slowedAfterTwoSecondsOfSuccesses();
    // Refused again 400 ms on with nothing admitted between: no more than the last second's
    // 30 successes, under 70 % of the ceiling (the limit fell).
    await clock.advanceBy(400);
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(30 * 0.95);
    // Admitted again 300 ms later, with 15 of those successes (and this one) in the last
    // second: the limit is at least 16, at most 30. The ceiling goes halfway, and the rate
    // just under it (near the cubic's plateau: it left its floor at the slow-down).
    await clock.advanceBy(300);
    controller.onSuccess();
    expect(limiter.rate).toBeGreaterThanOrEqual(((16 + 30) / 2) * 0.95);
    expect(limiter.rate).toBeLessThanOrEqual(((16 + 30) / 2) * 0.99);
  });

  it('keeps the bound at the first success after a ramp past a forgotten ceiling (the last second lags the rate)', async () => {
    const { clock, limiter, controller } = adaptive(50);
    for (let i = 0; i < 50; i++) {
      await clock.advanceBy(20);
      controller.onSuccess();
    }
    controller.onRefusal();
    await clock.advanceBy(300);
    controller.onRefusal();
    await clock.advanceBy(300);
    controller.onSuccess();
    // No ceiling before the slow-down: the bound of 35 stands, the rate near it.
    expect(limiter.rate).toBeGreaterThan(35 * 0.95);
  });

  it('slows again to what the upstream admitted since, when it refuses after a success (a limit that fell)', async () => {
    const { clock, limiter, controller } = adaptive(50);
    for (let i = 0; i < 100; i++) {
      await clock.advanceBy(20);
      controller.onSuccess();
    }
    controller.onRefusal({ retryAfterMs: 10 });
    // Slow start took the rate past 100: what went through, or half that, less 5 %.
    expect(limiter.rate).toBeLessThan(60);
    // The upstream now admits 20 a second: 5 successes in the next 250 ms, then a refusal.
    for (let i = 0; i < 5; i++) {
      await clock.advanceBy(50);
      controller.onSuccess();
    }
    controller.onRefusal({ retryAfterMs: 10 });
    expect(limiter.rate).toBeGreaterThan(15);
    expect(limiter.rate).toBeLessThan(21);
  });

  it('takes a refusal too soon after a ramp past a forgotten ceiling ended for an echo of it, successes between or not', async () => {
    // Over HTTP, and in virtual time with answers taking 10-20 ms, a ramp past a sliding log's
    // limit of 80 was refused at 148 a second, slowed to 99, then refused 20 ms later with a
    // success between: taken for news, too soon to measure, it cut the rate by the factor
    // three times in 120 ms (99 → 69 → 49 → 36) and the rise took 5 s or never settled.
    const { clock, limiter, controller } = adaptive(50);
    controller.onRefusal();
    // Admitted 10 % past the ceiling of 50 for two seconds: it is forgotten, and the rate
    // ramps up, doubling every half second.
    for (let i = 0; i < 140; i++) {
      await clock.advanceBy(1_000 / 60);
      controller.onSuccess();
    }
    for (let i = 0; i < 60; i++) {
      await clock.advanceBy(10);
      controller.onSuccess();
    }
    controller.onRefusal({}, clock.now() - 10);
    const slowed = limiter.rate;
    expect(slowed).toBeGreaterThan(85);
    await clock.advanceBy(10);
    controller.onSuccess();
    await clock.advanceBy(10);
    controller.onRefusal({}, clock.now() - 10);
    // An echo: paused two calls' time and bounded by the last second's 84 successes, not cut
    // by the factor (to 0.7 × 95).
    expect(limiter.snapshot().nextAtMs - clock.now()).toBeCloseTo(2_000 / slowed);
    expect(limiter.rate).toBeCloseTo(84 * 0.95);
  });

  it.each([
    ['a whole-second Retry-After', { retryAfterMs: 1_000, retryAfterInWholeSeconds: true }, true],
    ['no Retry-After', {}, true],
    ['a precise Retry-After (a bucket telling its next token)', { retryAfterMs: 15 }, false],
  ])(
    'takes a refusal saying %s, within a second of a slow-down after which the upstream admitted the rate set, for an echo: %s',
    async (_name, signals, echo) => {
      // Over HTTP (and in virtual time with the callers stalling 50 ms now and then) a probe's
      // refusal at a sliding log's limit of 80 was followed 280 ms later by another, with the
      // log admitting as its entries aged out: taken for news, what it admitted since (the
      // callers' stalls counted in) slowed the rate from 74 to 67, and the phase never settled.
      const { clock, limiter, controller } = await slowedAfterTwoSecondsOfSuccesses();
      const slowed = limiter.rate;
      for (let i = 0; i < 14; i++) {
        await clock.advanceBy(1_000 / slowed);
        controller.onSuccess();
      }
      const probing = limiter.rate;
      controller.onRefusal(signals);
      if (echo) {
        // Paused two calls' time, the rate where it was (the last second's 50 successes bound
        // nothing under the ceiling).
        expect(limiter.rate).toBe(probing);
        expect(limiter.snapshot().nextAtMs - clock.now()).toBeCloseTo(2_000 / slowed);
      } else expect(limiter.rate).toBeLessThan(slowed);
    },
  );

  it("lets a probe refused past a ceiling that a ramp's lagging count guessed measure anew, not capped by that guess", async () => {
    // A bucket with a burst of 2 saying only a whole-second Retry-After: slow start ended at a
    // ceiling of 42 (the last second's successes lag a ramp), every probe was refused past 50,
    // and the rate went back under 42 each time: 1.20x the ideal time, and the raise of its
    // limit to 80 never found.
    const { clock, limiter, controller } = adaptive(10);
    // Slow start: the rate doubles every second, the successes lag it.
    while (limiter.rate < 40) {
      await clock.advanceBy(1_000 / limiter.rate);
      controller.onSuccess();
    }
    controller.onRefusal();
    const guessed = limiter.rate / 0.95;
    expect(guessed).toBeLessThan(40);
    // The probes take the rate 15 % past the guess, all admitted.
    const successes: number[] = [];
    while (limiter.rate < guessed * 1.15) {
      await clock.advanceBy(1_000 / limiter.rate);
      controller.onSuccess();
      successes.push(clock.now());
    }
    controller.onRefusal();
    // Measured anew, the last second's successes (more than the guess), not capped at it.
    const lastSecond = successes.filter((at) => at > clock.now() - 1_000).length;
    expect(lastSecond).toBeGreaterThan(guessed);
    expect(limiter.rate).toBeCloseTo(lastSecond * 0.95);
  });

  it('remembers the ceiling: refused again above it, the rate slows to under it, not to the successes counted', async () => {
    // A fixed window's successes counted over a second straddle its reset, and count more.
    const { clock, limiter, controller } = adaptive(50);
    controller.onRefusal();
    // Refused at 50 a second: the ceiling. The probes take the rate past it.
    while (limiter.rate < 56) {
      await clock.advanceBy(1_000 / limiter.rate);
      controller.onSuccess();
    }
    controller.onRefusal();
    expect(limiter.rate).toBeCloseTo(50 * 0.95);
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

  it('takes a limit the upstream announces at once in slow start, instead of ramping up to it', () => {
    const { limiter, controller } = adaptive(10);
    controller.onSuccess({ limit: 50, windowMs: 1_000, remaining: 49, resetMs: 1_000 });
    expect(limiter.rate).toBe(50);
  });

  it('takes a raised announced limit at once, also after a slow-down', () => {
    // Before: past slow start, a raised limit was found only by probing up to it.
    const { limiter, controller } = adaptive(40);
    controller.onSuccess({ limit: 20, windowMs: 1_000, remaining: 10, resetMs: 1_000 });
    controller.onRefusal({ retryAfterMs: 10 });
    expect(limiter.rate).toBeLessThanOrEqual(20);
    controller.onSuccess({ limit: 80, windowMs: 1_000, remaining: 79, resetMs: 1_000 });
    expect(limiter.rate).toBe(80);
  });

  it("forgets the ceiling when an X-RateLimit bucket's remaining count rises while the rate is at it (the refill was raised), and ramps up", async () => {
    const { clock, limiter, controller } = adaptive(20);
    // A bucket of 10 refilled at 20 a second, drained at 24: one token less every 6 calls.
    let tokens = 10;
    for (let i = 0; tokens > 0; i++) {
      await clock.advanceBy(1_000 / 24);
      tokens = Math.max(0, 10 - Math.floor(i / 6));
      controller.onSuccess({ limit: 10, remaining: tokens, resetMs: 1_000 });
    }
    const slowed = limiter.rate;
    expect(slowed).toBeLessThan(21);
    // The refill is raised to 80 a second: the count climbs back although the rate is at the
    // ceiling.
    for (let i = 0; i < 30; i++) {
      await clock.advanceBy(1_000 / limiter.rate);
      tokens = Math.min(10, tokens + 3);
      controller.onSuccess({ limit: 10, remaining: tokens, resetMs: 1_000 });
    }
    expect(limiter.rate).toBeGreaterThan(1.5 * slowed);
  });

  it('waits for a reset longer than a second when nothing remains and the upstream did not say its window', () => {
    const { clock, limiter, controller } = adaptive(20);
    controller.onSuccess({ limit: 5_000, remaining: 0, resetMs: 90_000 });
    expect(limiter.snapshot().nextAtMs).toBe(clock.now() + 90_000);
  });

  it("reads X-RateLimit counts that refill continuously as a bucket's: at nothing remaining it slows to the refill rate, without pausing for the whole-second reset", async () => {
    // Before: every `remaining: 0, reset: 1` paused all callers a second (2.5x the ideal time).
    const { clock, limiter, controller } = adaptive(60);
    let tokens = 10;
    for (let i = 0; i < 120 && tokens > 0; i++) {
      await clock.advanceBy(1_000 / 60);
      // Refills at 50 a second, drained at 60: one token less every 6 calls.
      tokens = Math.max(0, 10 - Math.floor(i / 6));
      controller.onSuccess({ limit: 10, remaining: tokens, resetMs: 1_000 });
    }
    expect(limiter.snapshot().nextAtMs).toBeLessThan(clock.now() + 100);
    expect(limiter.rate).toBeGreaterThan(45);
    expect(limiter.rate).toBeLessThan(50);
  });

  it('does not slow down when a small bucket says nothing remains before its count was seen falling (calls that left together emptied it)', async () => {
    // A bucket of 2 refilling at 54 a second; the callers' process stalled and three calls
    // left at once 150 ms into slow start at 11 a second. Before: slowed to 7.7 a second.
    const { clock, limiter, controller } = adaptive(11);
    controller.onSuccess({ limit: 2, remaining: 1, resetMs: 1_000 });
    await clock.advanceBy(150);
    for (const remaining of [1, 0]) controller.onSuccess({ limit: 2, remaining, resetMs: 1_000 });
    expect(limiter.rate).toBeGreaterThan(11);
  });

  it('reads X-RateLimit counts that refill at once every second as a window, and caps the rate at limit / window', async () => {
    const { clock, limiter, controller } = adaptive(100);
    for (let i = 0; i < 400; i++) {
      await clock.advanceBy(10);
      const used = (i % 100) + 1;
      controller.onSuccess({ limit: 40, remaining: Math.max(0, 40 - used), resetMs: 1_000 });
    }
    expect(limiter.rate).toBeLessThanOrEqual(40);
  });

  it.each([
    ['moved (the limit changed), lift the ceiling', 150, true],
    ['held steady, do not lift it yet (that takes two seconds)', 0, false],
  ])(
    'after a precise Retry-After whose refill %s: a second of successes 10 %% past it',
    async (_name, movedByMs, lifted) => {
      const { clock, limiter, controller } = adaptive(20);
      // A bucket refilling 20 a second: each success moves its next token 50 ms on.
      let nextTokenAt = 0;
      const refuse = () => controller.onRefusal({ retryAfterMs: nextTokenAt - clock.now() });
      const succeed = async (count: number, perSecond: number) => {
        for (let i = 0; i < count; i++) {
          await clock.advanceBy(1_000 / perSecond);
          controller.onSuccess();
        }
        nextTokenAt += (count * 1_000) / 20;
      };
      await succeed(40, 20);
      nextTokenAt = clock.now() + 10;
      refuse();
      for (let round = 0; round < 2; round++) {
        await succeed(40, 20);
        refuse();
      }
      await succeed(20, 20);
      nextTokenAt += movedByMs;
      refuse();
      const ceiling = limiter.rate / 0.95;
      await succeed(35, 23);
      // Lifted: slow start again, doubling every half second; else still near the ceiling.
      if (lifted) expect(limiter.rate).toBeGreaterThan(1.5 * ceiling);
      else expect(limiter.rate).toBeLessThan(1.25 * ceiling);
    },
  );

  describe('against a fixed window that only refuses', () => {
    /** Admits `limit` calls in each window, from each whole second (+ 10 ms). */
    class FixedWindow {
      private windowStart = 10;
      private used = 0;
      constructor(public limit = 20) {}

      admits(sentAt: number): boolean {
        while (sentAt >= this.windowStart + 1_000)
          [this.windowStart, this.used] = [this.windowStart + 1_000, 0];
        if (sentAt < this.windowStart || this.used >= this.limit) return false;
        this.used++;
        return true;
      }
    }

    /**
     * Sends into `window` after the limiter's pauses, at most one call every `gapMs` (and at its
     * pace, to the ms, when `paced`), for `seconds` or until the first refusal when `untilRefused`.
     */
    async function send(
      { clock, limiter, controller }: ReturnType<typeof adaptive>,
      window: FixedWindow,
      seconds: number,
      { retryAfter = false, gapMs = 40, paced = false, untilRefused = false } = {},
    ) {
      const end = clock.now() + seconds * 1_000;
      while (clock.now() < end) {
        await clock.advanceTo(Math.max(limiter.snapshot().nextAtMs, clock.now() + gapMs));
        while (paced && !limiter.tryAcquire()) await clock.advanceBy(1);
        const sentAt = clock.now();
        if (window.admits(sentAt)) {
          controller.onSuccess();
          continue;
        }
        const signals = retryAfter ? { retryAfterMs: 1_000, retryAfterInWholeSeconds: true } : {};
        await clock.advanceBy(1);
        controller.onRefusal(signals, sentAt);
        if (untilRefused) return;
      }
    }

    /** Sends at 25 a second into a window admitting 20 for `seconds`. */
    async function sendSeconds(seconds: number, retryAfter = false) {
      const driven = adaptive(25);
      const window = new FixedWindow();
      await send(driven, window, seconds, { retryAfter });
      // Late in the window, as a refusal of a fixed window comes.
      await driven.clock.advanceTo(Math.ceil(driven.clock.now() / 1_000) * 1_000 + 900);
      return { ...driven, window };
    }

    /** The window's next reset after `now`: 10 ms past a whole second. */
    const nextReset = (now: number) => Math.ceil((now - 10) / 1_000) * 1_000 + 10;

    it('learns the reset from where three runs of refusals end, and then pauses each refusal until it', async () => {
      const { clock, limiter, controller } = await sendSeconds(4);
      // A refusal now waits for the window's next reset, 10 ms past a whole second: no sooner,
      // and no later than the first successes after the resets came (calls 40 ms apart).
      controller.onRefusal({}, clock.now());
      const resumesAt = limiter.snapshot().nextAtMs;
      expect(resumesAt).toBeGreaterThanOrEqual(nextReset(clock.now()));
      expect(resumesAt).toBeLessThanOrEqual(nextReset(clock.now()) + 50);
    });

    it('with a whole-second Retry-After too (a bound of the wait, not the wait)', async () => {
      const { clock, limiter, controller } = await sendSeconds(4, true);
      controller.onRefusal({ retryAfterMs: 1_000, retryAfterInWholeSeconds: true }, clock.now());
      expect(limiter.snapshot().nextAtMs).toBeGreaterThanOrEqual(nextReset(clock.now()));
      expect(limiter.snapshot().nextAtMs).toBeLessThanOrEqual(nextReset(clock.now()) + 50);
    });

    it("ending a ramp past a raised limit, measures what the refused call's window admitted (not twice its last half second)", async () => {
      // In virtual time with answers taking 10-30 ms, a ramp into a window raised from 20 to 80
      // was refused at 227 a second; the last half second's successes, doubled (or half the
      // ramp's rate), slowed it to 160, and the next two windows refused 8 calls before the rate
      // came down to 76.
      const driven = await sendSeconds(4);
      driven.window.limit = 80;
      await send(driven, driven.window, 10, { gapMs: 1, paced: true, untilRefused: true });
      // Counted from the earliest point the reset learnt may be, a few of the window before
      // count too (the ramp crossed the reset): within 5 % of the limit, not 60 % past it.
      expect(driven.limiter.rate).toBeGreaterThan(80 * 0.9);
      expect(driven.limiter.rate).toBeLessThan(80 * 1.05);
    });

    it('follows a precise Retry-After as said, reset learnt or not', async () => {
      const { clock, limiter, controller } = await sendSeconds(4);
      controller.onRefusal({ retryAfterMs: 30 }, clock.now());
      expect(limiter.snapshot().nextAtMs).toBe(clock.now() + 30);
    });
  });
});
