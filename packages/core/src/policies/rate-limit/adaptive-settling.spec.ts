import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { UpstreamModelOptions } from './testing/limited-upstream-model.js';
import {
  runLimitChange,
  settleSeconds,
  type LimitChangeResult,
  type LimitChangeRun,
} from './testing/simulated-upstream.js';

/**
 * The adaptive limiter, configured as the README recommends for an unknown limit
 * (`{ rate: 10, adaptive: true }`), against the kinds of upstream of `bench:upstream`, 20
 * callers that retry refusals after their `Retry-After` (1 s without one), in virtual time:
 * deterministic, so the figures are exact. The goal (issue 26): at most 1.15x the ideal time
 * and 2 % of requests refused on every kind; after a limit change, within 10 % of the new
 * limit in at most 2 s with at most 5 % refused in that phase.
 */
describe('AdaptiveRateController against the kinds of upstream (virtual time)', () => {
  const share = (accepted: number, refused: number) => refused / (accepted + refused);
  const steady = (upstream: UpstreamModelOptions): LimitChangeRun => ({
    phases: [50],
    phaseMs: 60_000,
    callers: 20,
    startRate: 10,
    calls: 1_000,
    upstream,
  });
  /** The limit changing 50 → 20 → 80 every 10 s, from a starting guess of 10, with 20 callers. */
  const changingLimit = async (
    upstream: UpstreamModelOptions,
    settings: Partial<LimitChangeRun> = {},
  ) => {
    const run: LimitChangeRun = {
      phases: [50, 20, 80],
      phaseMs: 10_000,
      callers: 20,
      startRate: 10,
      upstream,
      ...settings,
    };
    return { run, result: await runLimitChange(new VirtualClock({ startMs: 0 }), run) };
  };
  /** The refused share of phase `phase` (10 s each). */
  const phaseShare = (result: LimitChangeResult, phase: number) => {
    const seconds = [phase * 10, phase * 10 + 10] as const;
    const total = (perSecond: readonly number[]) =>
      perSecond.slice(...seconds).reduce((sum, value) => sum + (value ?? 0), 0);
    return share(total(result.acceptedPerSecond), total(result.refusedPerSecond));
  };

  // Before (86d63e8): 1.08x, 3.2 %; 1.02x, 0 %; 1.05x, 5.5 %; 2.47x, 1.2 %.
  it.each<[string, UpstreamModelOptions]>([
    [
      'a sliding log saying only a whole-second Retry-After',
      { counting: 'sliding-log', headers: 'retry-after-seconds' },
    ],
    [
      'a token bucket (burst 10) with IETF RateLimit headers',
      { counting: 'token-bucket', headers: 'ietf', burst: 10 },
    ],
    [
      'a fixed one-second window saying nothing at all',
      { counting: 'fixed-window', headers: 'none' },
    ],
    [
      'a token bucket (burst 10) sending X-RateLimit-Limit/-Remaining/-Reset',
      { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
    ],
    // Slow start's end measured a ceiling of 42 in a ramp's lagging count, and every probe,
    // refused past 50, was capped by it: 1.20x (a ramp's guess no longer caps them).
    [
      'a token bucket (burst 2) saying only a whole-second Retry-After',
      { counting: 'token-bucket', headers: 'retry-after-seconds', burst: 2 },
    ],
  ])(
    '%s: within 1.15x the ideal time, at most 2 %% refused',
    async (_name, upstream) => {
      const result = await runLimitChange(new VirtualClock({ startMs: 0 }), steady(upstream));
      expect(result.elapsedMs).toBeLessThanOrEqual(1.15 * 20_000);
      expect(share(result.accepted, result.refused)).toBeLessThanOrEqual(0.02);
    },
    30_000,
  );

  // Before: 11.4 % refused in the 20/s phase (precise Retry-After); the X-RateLimit bucket
  // never settled in any phase. Then (ADR 0028) the rise took 6 s on both: the ceiling was
  // forgotten only 10 % past it over 2 s, and the refusal ending the ramp after it measured a
  // second of successes, half the rate reached. Then 4 s with a precise Retry-After, 2 s with
  // X-RateLimit-*.
  it.each<[string, UpstreamModelOptions]>([
    // The rise is found by probing past the ceiling (was 4 s): the refusal the raise causes
    // (the bucket's tolerance shrinks with its interval) measures, from the precise
    // Retry-After, a refill off the steady one, so the probes run afresh and faster.
    [
      'a token bucket with a precise Retry-After',
      { counting: 'token-bucket', headers: 'retry-after-ms' },
    ],
    [
      'a token bucket (burst 10) with a precise Retry-After',
      { counting: 'token-bucket', headers: 'retry-after-ms', burst: 10 },
    ],
    // The remaining counts rising while the rate is at the ceiling tell the raised refill.
    [
      'a token bucket sending X-RateLimit headers',
      { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
    ],
    // Where the runs of refusals end tells the window's reset, and refusals then wait for it
    // (was: the rise in 5 s; 7.6 % refused in the 20/s phase, 3.3 % in all).
    [
      'a fixed window saying a whole-second Retry-After',
      { counting: 'fixed-window', headers: 'retry-after-seconds' },
    ],
    // The first success after the log's echoes bounds its limit from below (was 5.3 % refused
    // in the 20/s phase).
    [
      'a sliding log saying a precise Retry-After',
      { counting: 'sliding-log', headers: 'retry-after-ms' },
    ],
  ])(
    '%s, limit 50 → 20 → 80 every 10 s: within 10 %% of 20 in 2 s and of 80 in 2 s, with at most 5 %% refused in either phase, at most 2 %% in all',
    async (_name, upstream) => {
      const { run, result } = await changingLimit(upstream);
      expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(2);
      expect(phaseShare(result, 1)).toBeLessThanOrEqual(0.05);
      expect(phaseShare(result, 2)).toBeLessThanOrEqual(0.05);
      expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(2);
      expect(share(result.accepted, result.refused)).toBeLessThanOrEqual(0.02);
    },
    30_000,
  );

  // Kinds whose changing limit misses a goal in virtual time, held at what is measured (ADR
  // 0028, amendments 3 to 6) so that nothing slides back: the fall settles in 2 s, but the
  // rise or the 5 % in the 20/s phase is not met (each refusal while a log drains is a larger
  // share at 20/s). The sliding log with a whole-second Retry-After: 7.5 % and 2.0 % refused
  // at 1e75af1, 6.3 % and 1.8 % before amendment 6; its rise took 5 s before amendment 4.
  it.each<[string, number, UpstreamModelOptions, number, number]>([
    // Refusals wait for the window's reset learnt from them (was 5.3 % in the 20/s phase,
    // 1.9 % in all, the rise in 3 s; the first refusal of a fall does not wait for a reset
    // more than 250 ms away, which costs 3.0 → 3.9 % there). Its rise takes 4 s here because the last probe before
    // the raise came just before it; over HTTP it settled in 2 s in two runs of two.
    [
      'a fixed window saying nothing',
      4,
      { counting: 'fixed-window', headers: 'none' },
      0.039,
      0.017,
    ],
    [
      'a sliding log saying a whole-second Retry-After',
      2,
      { counting: 'sliding-log', headers: 'retry-after-seconds' },
      0.053,
      0.016,
    ],
  ])(
    '%s, limit 50 → 20 → 80: the fall within 10 %% in 2 s, the rise in %d s, no more refused than measured',
    async (_name, riseSeconds, upstream, fallShare, allShare) => {
      const { run, result } = await changingLimit(upstream);
      expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(2);
      expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(riseSeconds);
      expect(phaseShare(result, 1)).toBeLessThanOrEqual(fallShare + 0.0005);
      expect(share(result.accepted, result.refused)).toBeLessThanOrEqual(allShare + 0.0005);
    },
    30_000,
  );

  // Answers over real sockets vary, and the callers' process stalls now and then (a busy event
  // loop, a garbage collection): the figures above hold for fixed 10 ms answers only. Bounds
  // as measured on seeds 1-8 (ADR 0028, amendment 7); a sliding log's changes settle within 2 s
  // on some seeds only.
  const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
  const logSecondsOnly: UpstreamModelOptions = {
    counting: 'sliding-log',
    headers: 'retry-after-seconds',
  };
  const smallBurst: UpstreamModelOptions = {
    counting: 'token-bucket',
    headers: 'retry-after-seconds',
    burst: 2,
  };
  /** The steady run takes at most `times` the ideal time, with at most 2 % refused. */
  const expectSteadyWithin = async (
    times: number,
    upstream: UpstreamModelOptions,
    settings: Partial<LimitChangeRun>,
  ) => {
    const result = await runLimitChange(new VirtualClock({ startMs: 0 }), {
      ...steady(upstream),
      ...settings,
    });
    expect(result.elapsedMs).toBeLessThanOrEqual(times * 20_000);
    expect(share(result.accepted, result.refused)).toBeLessThanOrEqual(0.02);
  };

  /**
   * The sliding log saying a whole-second Retry-After: steady within `times` the ideal time
   * (and 2 %); its fall settles within `fallSeconds` (with at most `fallShare` refused in that
   * phase, when given) and its rise within `riseSeconds`.
   */
  const expectSlidingLogWithin = async (
    settings: Partial<LimitChangeRun>,
    bounds: { times: number; fallSeconds: number; riseSeconds: number; fallShare?: number },
  ) => {
    await expectSteadyWithin(bounds.times, logSecondsOnly, settings);
    const { run, result } = await changingLimit(logSecondsOnly, settings);
    expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(bounds.fallSeconds);
    expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(bounds.riseSeconds);
    if (bounds.fallShare !== undefined)
      expect(phaseShare(result, 1)).toBeLessThanOrEqual(bounds.fallShare);
  };

  describe.each(seeds)('answers taking 10-20 ms (seed %d)', (seed) => {
    const settings: Partial<LimitChangeRun> = { latencyJitterMs: 10, seed };

    it.each<[string, UpstreamModelOptions, number]>([
      [
        'a token bucket with a precise Retry-After',
        { counting: 'token-bucket', headers: 'retry-after-ms' },
        3,
      ],
      [
        'a token bucket sending X-RateLimit headers',
        { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
        2,
      ],
    ])(
      '%s, limit 50 → 20 → 80: the fall in 2 s, the rise in %d s, at most 5 %% refused in either phase, 2 %% in all',
      async (_name, upstream, riseSeconds) => {
        const { run, result } = await changingLimit(upstream, settings);
        expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(2);
        expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(riseSeconds);
        expect(phaseShare(result, 1)).toBeLessThanOrEqual(0.05);
        expect(phaseShare(result, 2)).toBeLessThanOrEqual(0.05);
        expect(share(result.accepted, result.refused)).toBeLessThanOrEqual(0.02);
      },
      30_000,
    );

    it('a sliding log saying a whole-second Retry-After: steady within 1.15x and 2 %; the fall in 3 s, the rise in 4 s', async () => {
      await expectSlidingLogWithin(settings, {
        times: 1.15,
        fallSeconds: 3,
        riseSeconds: 4,
        fallShare: 0.05,
      });
    }, 30_000);

    // 1.20x before amendment 7, and the raise to 80 never found.
    it('a token bucket (burst 2) saying only a whole-second Retry-After: steady within 1.15x and 2 %; the rise in 5 s', async () => {
      await expectSteadyWithin(1.15, smallBurst, settings);
      const { run, result } = await changingLimit(smallBurst, settings);
      expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(5);
    }, 30_000);
  });

  describe.each(seeds)(
    'answers taking 10-20 ms, the callers stalling up to 50 ms about every 2 s (seed %d)',
    (seed) => {
      const settings: Partial<LimitChangeRun> = {
        latencyJitterMs: 10,
        stalls: { everyMs: 2_000, maxMs: 50 },
        seed,
      };

      it('a token bucket with a precise Retry-After, limit 50 → 20 → 80: the fall in 1 s, the rise in 4 s, at most 5 % refused in either phase', async () => {
        const { run, result } = await changingLimit(
          { counting: 'token-bucket', headers: 'retry-after-ms' },
          settings,
        );
        expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(1);
        expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(4);
        expect(phaseShare(result, 1)).toBeLessThanOrEqual(0.05);
        expect(phaseShare(result, 2)).toBeLessThanOrEqual(0.05);
      }, 30_000);

      // Up to 1.150x before amendment 7.
      it('a sliding log saying a whole-second Retry-After: steady within 1.12x and 2 %; both changes settle within 7 s', async () => {
        await expectSlidingLogWithin(settings, { times: 1.12, fallSeconds: 7, riseSeconds: 7 });
      }, 30_000);
    },
  );

  // An event loop's timers fire a millisecond or two late; the limiter lost that at every
  // call and sent 94-96 % of the rate set, which the controller read as the upstream's
  // limit (ADR 0028, amendment 8). Before: the steady run at 1.13-1.19x, the fall never
  // settling on 4 seeds of 6.
  describe.each(seeds)(
    "answers taking 10-20 ms, the limiter's timers firing up to 2 ms late (seed %d)",
    (seed) => {
      const settings: Partial<LimitChangeRun> = { latencyJitterMs: 10, timerLatenessMs: 2, seed };

      it('a sliding log saying a whole-second Retry-After: steady within 1.12x and 2 %; the fall in 2 s with at most 5 % refused, the rise in 4 s', async () => {
        await expectSlidingLogWithin(settings, {
          times: 1.12,
          fallSeconds: 2,
          riseSeconds: 4,
          fallShare: 0.05,
        });
      }, 30_000);
    },
  );

  it('a token bucket (burst 2) saying only a whole-second Retry-After, limit 50 → 20 → 80: the raise is found (it never was)', async () => {
    const { run, result } = await changingLimit(smallBurst);
    expect(settleSeconds(result, run, 1)).toBeLessThanOrEqual(2);
    expect(settleSeconds(result, run, 2)).toBeLessThanOrEqual(5);
    expect(phaseShare(result, 1)).toBeLessThanOrEqual(0.05);
  }, 30_000);
});
