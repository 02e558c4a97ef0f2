import { sleep } from '../../src/clock/sleep.js';
import type { VirtualClock } from '../../src/clock/virtual-clock.js';
import type { AdaptiveRateOptions } from '../../src/policies/rate-limit/rate-limit-options.js';
import { RateLimiter } from '../../src/policies/rate-limit/rate-limiter.js';
import { readUpstreamRateSignals } from '../../src/policies/rate-limit/upstream-rate-signals.js';
import { withLateTimers } from '../../src/testing/late-timers.js';
import { LimitedUpstreamModel, type UpstreamModelOptions } from './limited-upstream-model.js';

/** How a simulated run goes: an upstream whose limit may change, and callers that retry its 429s. */
export interface LimitChangeRun {
  /** The upstream's limit (calls per second) in each phase; the last one holds on. */
  readonly phases: readonly number[];
  readonly phaseMs: number;
  readonly callers: number;
  /** The limiter's starting guess. */
  readonly startRate: number;
  /** The limiter's burst (default 1). */
  readonly burst?: number;
  /** The adaptive options (default: the defaults). */
  readonly adaptive?: AdaptiveRateOptions;
  /** The upstream's answer time. */
  readonly latencyMs?: number;
  /**
   * Up to this much more answer time, drawn for each request from a seeded generator (default
   * 0: every answer takes `latencyMs`), as answers over real sockets vary.
   */
  readonly latencyJitterMs?: number;
  /** The seed of the jitter and the stalls (default 1). */
  readonly seed?: number;
  /**
   * The callers' process stalls now and then (a busy event loop, a garbage collection), about
   * every `everyMs` (half to one and a half times it) for up to `maxMs` (a third to all of
   * it): nothing is sent or answered meanwhile, and the calls the limiter let go and the
   * answers that came due go at its end, together. Default none.
   */
  readonly stalls?: { readonly everyMs: number; readonly maxMs: number };
  /**
   * The limiter's timers fire up to this much late, drawn for each timer from the seed
   * (default 0: on time), as an event loop's fire a millisecond or two after their time.
   */
  readonly timerLatenessMs?: number;
  /** How the upstream counts and what it says (default: a token bucket, burst 5, `retry-after-ms`). */
  readonly upstream?: UpstreamModelOptions;
  /**
   * Calls to make in all (each retried until accepted, up to 30 times): the run ends when the
   * last is answered. Without it, the callers call until the phases are over.
   */
  readonly calls?: number;
}

/** What the upstream saw: the requests it accepted and refused in each second, and in all. */
export interface LimitChangeResult {
  readonly acceptedPerSecond: readonly number[];
  readonly refusedPerSecond: readonly number[];
  readonly accepted: number;
  readonly refused: number;
  /** How long the run took, in ms (with `calls`: until the last call was answered). */
  readonly elapsedMs: number;
}

const MAX_RETRIES = 30;
const GOLDEN_RATIO_CONJUGATE = (Math.sqrt(5) - 1) / 2;

/**
 * Runs `callers` callers in virtual time against a simulated upstream ({@link
 * LimitedUpstreamModel}: a token bucket, fixed window or sliding log, saying what its header
 * style says). The callers share one adaptive limiter fed every answer's headers, as
 * `bench:upstream` feeds it; a refused caller waits the `Retry-After` (1 s without one) and
 * sends again.
 *
 * @internal
 */
export async function runLimitChange(
  clock: VirtualClock,
  run: LimitChangeRun,
): Promise<LimitChangeResult> {
  const { phases, phaseMs, callers, latencyMs = 10, latencyJitterMs = 0, timerLatenessMs } = run;
  const jitter = evenlySpread(run.seed ?? 1);
  const lateness = evenlySpread((run.seed ?? 1) + 0.25);
  const start = clock.now();
  // With `calls`, a run that has not finished them in 10 minutes is cut short there.
  const end = start + (run.calls === undefined ? phaseMs * phases.length : 600_000);
  const stalled = stallsOf(run, start);
  const limiter = new RateLimiter(
    'upstream',
    {
      rate: run.startRate,
      burst: run.burst ?? 1,
      maxWaitMs: 600_000,
      adaptive: run.adaptive ?? true,
    },
    timerLatenessMs === undefined
      ? clock
      : withLateTimers(clock, () => lateness() * timerLatenessMs),
  );
  const upstream = new LimitedUpstreamModel(
    run.upstream ?? { counting: 'token-bucket', headers: 'retry-after-ms' },
  );
  const acceptedPerSecond: number[] = [];
  const refusedPerSecond: number[] = [];
  const count = (perSecond: number[], elapsed: number): void => {
    const second = Math.floor(elapsed / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + 1;
  };
  let left = run.calls ?? Infinity;
  let lastAnswerAt = start;
  const call = async (): Promise<void> => {
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      await limiter.acquire();
      await sleep(clock, stalled(clock.now()));
      const sentAt = clock.now();
      const elapsed = sentAt - start;
      const limit = phases[Math.min(phases.length - 1, Math.floor(elapsed / phaseMs))] as number;
      const answer = upstream.decide(elapsed, limit);
      count(answer.ok ? acceptedPerSecond : refusedPerSecond, elapsed);
      await sleep(clock, latencyMs + jitter() * latencyJitterMs);
      await sleep(clock, stalled(clock.now()));
      lastAnswerAt = clock.now();
      const signals = readUpstreamRateSignals(answer.headers, clock.now());
      if (answer.ok) return limiter.admitted(signals, sentAt);
      limiter.refused(signals, sentAt);
      await sleep(clock, signals.retryAfterMs ?? 1000);
    }
  };
  const caller = async (): Promise<void> => {
    while (clock.now() < end && left > 0) {
      left--;
      await call();
    }
  };
  let finished = false;
  const done = Promise.allSettled(Array.from({ length: callers }, caller)).then(() => {
    finished = true;
  });
  while (!finished && clock.now() < end + 1_000) await clock.advanceBy(50);
  limiter.close(new Error('the run is over'));
  // Callers still sleeping (a latency, a Retry-After) wake and stop.
  while (!finished) await clock.advanceBy(50);
  await done;
  const sum = (perSecond: number[]) => perSecond.reduce((total, n) => total + (n ?? 0), 0);
  return {
    acceptedPerSecond,
    refusedPerSecond,
    accepted: sum(acceptedPerSecond),
    refused: sum(refusedPerSecond),
    elapsedMs: lastAnswerAt - start,
  };
}

/**
 * Seconds after phase `phase` starts until the accepted calls per second stay within
 * `tolerance` (default 10 %) of its limit to the phase's end (undefined: never within the phase), as `bench:upstream`
 * measures them.
 *
 * @internal
 */
export function settleSeconds(
  result: LimitChangeResult,
  run: LimitChangeRun,
  phase: number,
  tolerance = 0.1,
): number | undefined {
  const limit = run.phases[phase] as number;
  const first = (phase * run.phaseMs) / 1000;
  const last = first + run.phaseMs / 1000 - 1;
  for (let second = first; second <= last; second++) {
    // Every second to the phase's end, one with nothing accepted (a hole, or past the end) as 0.
    const rest = Array.from(
      { length: last + 1 - second },
      (_, index) => result.acceptedPerSecond[second + index] ?? 0,
    );
    if (rest.every((value) => Math.abs(value - limit) <= tolerance * limit)) return second - first;
  }
  return undefined;
}

/**
 * Numbers spread evenly over [0, 1), the same for the same seed: the fractional parts of
 * `seed × √2 + n × (√5 − 1) / 2` for n = 1, 2, … (a Weyl sequence).
 */
function evenlySpread(seed: number): () => number {
  let n = 0;
  return () => (seed * Math.SQRT2 + ++n * GOLDEN_RATIO_CONJUGATE) % 1;
}

/**
 * How long a time falls inside one of the run's stalls before it ends (0: none). Asked at
 * times that never go back (a virtual clock's), it draws each stall as the last one passes.
 */
function stallsOf(run: LimitChangeRun, start: number): (now: number) => number {
  if (run.stalls === undefined) return () => 0;
  const { everyMs, maxMs } = run.stalls;
  const draw = evenlySpread((run.seed ?? 1) + 0.5);
  const stallAfter = (at: number): [from: number, until: number] => {
    const from = at + everyMs * (0.5 + draw());
    return [from, from + maxMs * (1 / 3 + (2 / 3) * draw())];
  };
  let [from, until] = stallAfter(start);
  return (now) => {
    while (now >= until) [from, until] = stallAfter(until);
    return now >= from ? until - now : 0;
  };
}
