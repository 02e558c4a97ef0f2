import { assertOptions } from '../../options/assert-options.js';
import { AdmittedCalls } from './admitted-calls.js';
import { ADAPTIVE_RATE_OPTIONS_RULE } from './rate-limit-options.rule.js';
import { DEFAULT_ADAPTIVE_RATE, type AdaptiveRateOptions } from './rate-limit-options.js';
import type { RateController, RateDecision, UpstreamAnswer } from './rate-controller.js';
import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/** Rate changes smaller than this share are not made (no event for every success). */
const MIN_RELATIVE_CHANGE = 0.02;
/** After a slow-down the rate goes this far under what the upstream admitted: room for jitter. */
const ADMITTED_MARGIN = 0.95;
/** The probes return to this share of the ceiling and linger there before passing it. */
const PLATEAU = 0.99;
/** What the upstream admitted is measured over the last second (a limit is per second or more). */
const MEASURE_MS = 1_000;
/** Admitted this far past the ceiling over a second, the limit rose: ramp up to find it. */
const LIFTED = 1.1;
/** Leaving slow start the ceiling is at least this share of the rate reached (the last second
 * of a ramp doubling each second holds 72 % of its end rate). */
const RAMP_CEILING = 0.8;
/** A refusal without `Retry-After` pauses every caller for this many calls' time. */
const FIRST_PAUSE_CALLS = 4;

/**
 * The default {@link RateController} (`adaptive: true`): it follows what the upstream
 * announces, and otherwise converges on what it admitted (ADR 0028).
 *
 * - **Announced**: a limit with its window (IETF `RateLimit-Policy` `q`/`w`) is the rate, up or
 *   down, and nothing probes past it. A `Retry-After` (or `retry-after-ms`) pauses every caller
 *   for it; one in whole seconds is the wait rounded up (a bucket ready in 20 ms says 1), so
 *   the pause is a second less and the refused call alone waits it all.
 * - **Slow start**: until the first refusal each success adds ln 2 calls a second (the rate
 *   doubles every second).
 * - **A refusal** slows to 95 % of what the upstream admitted over the last second (a full log
 *   or window holds that many, a bucket refilled that many), or by `decreaseFactor` when too
 *   few calls tell; leaving slow start, never below half the rate reached (the last second
 *   lags a ramp). That count is the ceiling (leaving slow start, at least 80 % of the rate
 *   reached). Within a second of a slow-down the count is re-read, not cut 5 % again: a full
 *   log or window refuses for a second after a probe past it. A refusal of a call sent before the slow-down, or
 *   within `decreaseCooldownMs` of it with nothing admitted since, is its echo: it pauses every
 *   caller (twice as long at each) and cuts nothing. A `remaining` count falling to 0 (`X-
 *   RateLimit-Remaining`, `RateLimit` `r`) slows the same way, before the upstream refuses.
 * - **The probe upward** follows TCP CUBIC scaled to the ceiling: back to 99 % of it in
 *   `cbrt(0.05 / growth)` s (0.6 s at the default 0.2), flat there, then faster and faster
 *   (10 % past it some 1.6 s after). Admitted 10 % past the ceiling over a second, the limit
 *   rose: the ceiling is dropped and slow start looks for the new one.
 *
 * @publicApi
 */
export function defaultRateController(
  initialRate: number,
  options: AdaptiveRateOptions = {},
): RateController {
  assertOptions(ADAPTIVE_RATE_OPTIONS_RULE, options, 'AdaptiveRateOptions');
  return new DefaultRateController(initialRate, { ...DEFAULT_ADAPTIVE_RATE, ...options });
}

class DefaultRateController implements RateController {
  private slowStart = true;
  private ceiling = Number.POSITIVE_INFINITY;
  /** The rate right after the last slow-down: the probe's floor. */
  private floor = 0;
  private slowedAt = Number.NEGATIVE_INFINITY;
  /** The pause echoes take, doubled at each one sent after the last pause began. */
  private echoPauseMs = 0;
  private pausedAt = Number.NEGATIVE_INFINITY;
  /** A call was admitted since the last slow-down. */
  private admittedSince = false;
  private announced = Number.POSITIVE_INFINITY;
  private lastRemaining?: number;
  private readonly answers = new AdmittedCalls(MEASURE_MS);
  /** The rate last told the limiter (the rate aimed at moves on every success). */
  private told: number;

  constructor(
    private rate: number,
    private readonly options: Required<AdaptiveRateOptions>,
  ) {
    this.told = rate;
  }

  admitted({ nowMs: now, signals }: UpstreamAnswer): RateDecision | undefined {
    this.answers.record(now);
    [this.echoPauseMs, this.admittedSince] = [0, true];
    const announced = this.announce(signals);
    if (announced !== undefined || Number.isFinite(this.announced)) return announced;
    const emptied = signals.remaining === 0 && this.lastRemaining !== 0;
    this.lastRemaining = signals.remaining;
    if (emptied && !this.echoes(now, now)) return this.slowDown(now, 'the upstream has none left');
    if (this.lifted(now)) [this.slowStart, this.ceiling] = [true, Infinity];
    return this.move(this.probe(now), this.slowStart ? 'slow start' : 'probing');
  }

  refused({ nowMs: now, sentAtMs, signals }: UpstreamAnswer): RateDecision | undefined {
    const announced = this.announce(signals);
    const waitMs = pauseFor(signals);
    if (this.echoes(now, sentAtMs) || Number.isFinite(this.announced)) {
      // Sent before the last pause: that pause answered it. Else the upstream is still full.
      if (sentAtMs >= this.pausedAt)
        this.echoPauseMs = this.echoPauseMs === 0 ? this.firstPauseMs() : this.echoPauseMs * 2;
      const pauseMs = isPrecise(signals)
        ? (waitMs as number)
        : Math.max(waitMs ?? 0, this.echoPauseMs);
      return this.pause(announced ?? this.held('refused again'), now, pauseMs);
    }
    this.echoPauseMs = 0;
    const decision = this.slowDown(now, 'the upstream refused a call');
    return this.pause(decision, now, waitMs ?? this.firstPauseMs());
  }

  adopt(decision: RateDecision, decidedAtMs: number): number {
    if (decision.kind === 'announced') {
      [this.announced, this.slowStart] = [decision.rate, false];
      return (this.rate = this.told = this.bounded(decision.rate));
    }
    const rate = Math.min(decision.rate, this.announced);
    if (decision.kind !== 'slowed') return (this.rate = this.told = Math.max(this.rate, rate));
    [this.slowStart, this.slowedAt] = [false, decidedAtMs];
    this.ceiling = decision.ceiling ?? rate;
    return (this.rate = this.floor = this.told = rate);
  }

  /**
   * A refusal (or an emptied bucket) that the last slow-down answered: of a call sent before
   * it, or within `decreaseCooldownMs` of it with no call admitted since (still full).
   */
  private echoes(now: number, sentAtMs: number): boolean {
    const cooling = now - this.slowedAt < this.options.decreaseCooldownMs;
    return sentAtMs < this.slowedAt || (cooling && !this.admittedSince);
  }

  /** Slows to just under what the upstream admitted, which becomes the ceiling. */
  private slowDown(now: number, reason: string): RateDecision {
    const measured = this.answers.rate(now);
    const reached = this.rate;
    // The last second's calls left at up to the rate before the last slow-down, if within it:
    // a refusal soon after one re-reads the measure instead of cutting 5 % again.
    const sent = now - this.slowedAt < MEASURE_MS ? Math.max(reached, this.ceiling) : reached;
    let top = Math.min(measured ?? reached, sent);
    if (this.slowStart) top = Math.max(top, reached / 2);
    const next =
      measured === undefined ? reached * this.options.decreaseFactor : top * ADMITTED_MARGIN;
    const ceiling = this.slowStart ? Math.max(top, reached * RAMP_CEILING) : top;
    [this.slowStart, this.slowedAt, this.ceiling, this.admittedSince] = [false, now, ceiling, false];
    this.rate = this.bounded(next);
    this.floor = this.rate;
    return this.decide({ rate: this.rate, kind: 'slowed', reason, ceiling });
  }

  /** The probe's rate now: slow start's doubling, else the cubic back to the ceiling and past. */
  private probe(now: number): number {
    if (this.slowStart) return this.rate + Math.LN2;
    const { growth } = this.options;
    const plateau = Math.max(this.ceiling * PLATEAU, this.floor);
    const k = Math.cbrt((1 - this.floor / plateau) / growth);
    const seconds = (now - this.slowedAt) / 1000;
    return Math.max(this.rate, plateau * (1 + growth * (seconds - k) ** 3));
  }

  /** Admitted 10 % past the ceiling over a whole second since the slow-down: the limit rose. */
  private lifted(now: number): boolean {
    if (this.slowStart || now - this.slowedAt < MEASURE_MS) return false;
    return (this.answers.rate(now) ?? 0) > this.ceiling * LIFTED;
  }

  /** A limit announced with its window (`RateLimit-Policy`): the rate, up or down. */
  private announce({ limit, windowMs }: UpstreamRateSignals): RateDecision | undefined {
    if (limit === undefined || windowMs === undefined || windowMs <= 0) return undefined;
    const announced = (limit * 1000) / windowMs;
    if (announced === this.announced && this.told === this.bounded(announced)) return undefined;
    this.announced = announced;
    this.slowStart = false;
    this.rate = this.bounded(announced);
    return this.decide({
      rate: this.rate,
      kind: 'announced',
      reason: 'the upstream announced its limit',
    });
  }

  /** Aims at `rate`; tells the limiter once it moved 2 % from the rate last told. */
  private move(rate: number, reason: string): RateDecision | undefined {
    this.rate = this.bounded(rate);
    if (Math.abs(this.rate - this.told) < MIN_RELATIVE_CHANGE * this.told) return undefined;
    return this.decide({ rate: this.rate, kind: 'raised', reason });
  }

  private decide(decision: RateDecision): RateDecision {
    this.told = decision.rate;
    return decision;
  }

  /** Holds every caller for `ms`. */
  private pause(decision: RateDecision, now: number, ms: number): RateDecision {
    this.pausedAt = now;
    return { ...decision, pauseUntilMs: now + ms };
  }

  private held(reason: string): RateDecision {
    return { rate: this.rate, kind: 'held', reason };
  }

  private firstPauseMs(): number {
    return (FIRST_PAUSE_CALLS * 1000) / this.rate;
  }

  /** Within `[minRate, maxRate]`, and never above what the upstream announced. */
  private bounded(rate: number): number {
    const { minRate, maxRate } = this.options;
    return Math.min(maxRate, Math.max(minRate, rate), this.announced);
  }
}

/** The refusal said its wait to the millisecond (`retry-after-ms`, or a date). */
function isPrecise({ retryAfterMs, retryAfterInWholeSeconds }: UpstreamRateSignals): boolean {
  return retryAfterMs !== undefined && retryAfterInWholeSeconds !== true;
}

/** The pause a refusal asks for: its `Retry-After`, a second less when in whole seconds. */
function pauseFor({ retryAfterMs, retryAfterInWholeSeconds }: UpstreamRateSignals) {
  if (retryAfterMs === undefined) return undefined;
  return retryAfterInWholeSeconds === true ? Math.max(0, retryAfterMs - 1000) : retryAfterMs;
}
