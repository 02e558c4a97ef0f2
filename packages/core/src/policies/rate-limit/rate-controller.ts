import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/**
 * One answer of the upstream, as a limiter tells its {@link RateController}: when the call was
 * sent and answered (clock ms), and what the response's rate-limit headers said
 * ({@link readUpstreamRateSignals}; empty when the tool passed none on).
 *
 * @publicApi
 */
export interface UpstreamAnswer {
  readonly sentAtMs: number;
  readonly nowMs: number;
  readonly signals: UpstreamRateSignals;
}

/**
 * What a controller decides: the rate calls leave at from now on, why, and how it moved:
 * `slowed` after a refusal, `raised` by a probe, `announced` as the upstream's own limit,
 * `held` (the rate is unchanged; only `pauseUntilMs` is news). `ceiling` is the rate a
 * slow-down found the upstream admits (what later probes grow back past). `pauseUntilMs`
 * holds every call back until then (a `Retry-After`).
 *
 * @publicApi
 */
export interface RateDecision {
  readonly rate: number;
  readonly kind: 'slowed' | 'raised' | 'announced' | 'held';
  readonly reason: string;
  readonly ceiling?: number;
  readonly pauseUntilMs?: number;
}

/**
 * How an adaptive limiter moves its rate: told every answer of the upstream, it answers the
 * rate to use now and a pause, or `undefined` for no change. On a store shared by several
 * instances, a decision another instance made is {@link adopt}ed (a controller then builds
 * its next decisions on it). `rateLimit: { adaptive: controller }` plugs one in;
 * `adaptive: true` uses {@link defaultRateController}.
 *
 * @example
 * const fixedBackoff: RateController = {
 *   admitted: () => undefined,
 *   refused: ({ nowMs }) => ({ rate: 5, kind: 'slowed', reason: '429', pauseUntilMs: nowMs + 1_000 }),
 *   adopt: ({ rate }) => rate,
 * };
 * @publicApi
 */
export interface RateController {
  /** The upstream admitted a call. */
  admitted(answer: UpstreamAnswer): RateDecision | undefined;
  /** The upstream refused a call for its rate (429, or 503 with `Retry-After`). */
  refused(answer: UpstreamAnswer): RateDecision | undefined;
  /**
   * Another instance on the shared store decided `decision` at clock time `decidedAtMs`:
   * returns the rate to use now.
   */
  adopt(decision: RateDecision, decidedAtMs: number): number;
}

/** Whether an `adaptive` option is a controller of the user's own. @internal */
export function isRateController(value: unknown): value is RateController {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<RateController>).admitted === 'function' &&
    typeof (value as Partial<RateController>).refused === 'function'
  );
}
