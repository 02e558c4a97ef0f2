import { sleep } from '../../../clock/sleep.js';
import type { VirtualClock } from '../../../clock/virtual-clock.js';
import { AdaptiveRateController } from '../adaptive-rate-controller.js';
import { RateLimiter } from '../rate-limiter.js';

/** How a simulated run goes: an upstream whose limit may change, and callers that retry its 429s. */
export interface LimitChangeRun {
  /** The upstream's limit (calls per second) in each phase. */
  readonly phases: readonly number[];
  readonly phaseMs: number;
  readonly callers: number;
  /** The limiter's starting guess. */
  readonly startRate: number;
  /** The upstream's answer time. */
  readonly latencyMs?: number;
  /**
   * The refusal's `Retry-After` in whole seconds, rounded up (the header's own unit, as many
   * upstreams send it without `retry-after-ms`): a 20 ms wait reads 1 s. Default: precise.
   */
  readonly wholeSecondRetryAfter?: boolean;
  /**
   * How the upstream counts: a GCRA bucket with burst 5 (default), or at most the limit per
   * one-second window (the wait then runs to the window's end).
   */
  readonly counting?: 'token-bucket' | 'fixed-window';
}

/** What the upstream saw: the requests it accepted and refused in each second, and in all. */
export interface LimitChangeResult {
  readonly acceptedPerSecond: readonly number[];
  readonly refusedPerSecond: readonly number[];
  readonly accepted: number;
  readonly refused: number;
}

/** The upstream's burst: calls it lets through back to back after a quiet spell. */
const UPSTREAM_BURST = 5;

/**
 * Runs `callers` callers in virtual time against a simulated upstream that enforces its limit
 * as a GCRA bucket (burst 5; or a fixed window, `counting`) and answers a refused request
 * with a `Retry-After` (precise, or in whole seconds), and nothing else: the limiter learns
 * only from refusals (the `token-bucket` upstream of `bench:upstream`). The callers share one adaptive limiter; a refused caller waits the
 * `Retry-After` and sends again.
 *
 * @internal
 */
export async function runLimitChange(
  clock: VirtualClock,
  run: LimitChangeRun,
): Promise<LimitChangeResult> {
  const { phases, phaseMs, callers, latencyMs = 10 } = run;
  const start = clock.now();
  const end = start + phaseMs * phases.length;
  const limiter = new RateLimiter('upstream', { rate: run.startRate, maxWaitMs: 600_000 }, clock);
  const controller = new AdaptiveRateController(limiter, clock);
  const acceptedPerSecond: number[] = [];
  const refusedPerSecond: number[] = [];
  let tat = Number.NEGATIVE_INFINITY;
  const count = (perSecond: number[], elapsed: number): void => {
    const second = Math.floor(elapsed / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + 1;
  };
  /** The upstream's decision on a request arriving now: undefined, or the wait it asks for. */
  const refusal = (): number | undefined => {
    const elapsed = clock.now() - start;
    const limit = phases[Math.min(phases.length - 1, Math.floor(elapsed / phaseMs))] as number;
    let waitMs: number;
    if (run.counting === 'fixed-window') {
      const second = Math.floor(elapsed / 1000);
      waitMs = (acceptedPerSecond[second] ?? 0) < limit ? 0 : 1000 * (second + 1) - elapsed;
    } else {
      const interval = 1000 / limit;
      const tolerance = (UPSTREAM_BURST - 1) * interval;
      waitMs = Math.max(0, Math.ceil(tat - tolerance - elapsed));
      if (waitMs === 0) tat = Math.max(elapsed, tat) + interval;
    }
    if (waitMs === 0) {
      count(acceptedPerSecond, elapsed);
      return undefined;
    }
    count(refusedPerSecond, elapsed);
    return run.wholeSecondRetryAfter ? Math.ceil(waitMs / 1000) * 1000 : waitMs;
  };
  const caller = async (): Promise<void> => {
    while (clock.now() < end) {
      await limiter.acquire();
      const waitMs = refusal();
      await sleep(clock, latencyMs);
      if (waitMs === undefined) {
        controller.onSuccess();
        continue;
      }
      controller.onRefusal({
        retryAfterMs: waitMs,
        ...(run.wholeSecondRetryAfter ? { retryAfterInWholeSeconds: true } : {}),
      });
      await sleep(clock, waitMs);
    }
  };
  const done = Promise.all(Array.from({ length: callers }, caller));
  while (clock.now() < end + 1_000) await clock.advanceBy(50);
  limiter.close(new Error('the run is over'));
  await done.catch(() => undefined);
  const sum = (perSecond: number[]) => perSecond.reduce((total, n) => total + (n ?? 0), 0);
  return {
    acceptedPerSecond,
    refusedPerSecond,
    accepted: sum(acceptedPerSecond),
    refused: sum(refusedPerSecond),
  };
}

/**
 * Seconds after phase `phase` starts until the accepted calls per second stay within 15 % of
 * its limit to the phase's end (undefined: never within the phase), as `bench:upstream`
 * measures them.
 *
 * @internal
 */
export function settleSeconds(
  result: LimitChangeResult,
  run: LimitChangeRun,
  phase: number,
): number | undefined {
  const limit = run.phases[phase] as number;
  const first = (phase * run.phaseMs) / 1000;
  const last = first + run.phaseMs / 1000 - 1;
  for (let second = first; second <= last; second++) {
    const rest = result.acceptedPerSecond.slice(second, last + 1).map((value) => value ?? 0);
    if (rest.every((value) => Math.abs(value - limit) <= 0.15 * limit)) return second - first;
  }
  return undefined;
}
