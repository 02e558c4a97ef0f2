import type { Clock } from '../../clock/clock.js';
import { assertOptions } from '../../options/assert-options.js';
import { ADAPTIVE_RATE_OPTIONS_RULE } from './rate-limit-options.rule.js';
import { AcceptedRate } from './accepted-rate.js';
import { CeilingProbe } from './ceiling-probe.js';
import { pauseForRetryAfter as pauseFor } from './caller-pauses.js';
import { PreciseRefill } from './precise-refill.js';
import { DEFAULT_ADAPTIVE_RATE, type AdaptiveRateOptions } from './rate-limit-options.js';
import type { FollowedRateChange } from './rate-limit-store.js';
import type { RateLimiter } from './rate-limiter.js';
import { RemainingCountWatch } from './remaining-count-shape.js';
import { SinceSlowDown } from './since-slow-down.js';
import { WindowReset } from './window-reset.js';
import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/** Rate changes smaller than this share are not applied (no event spam). */
const MIN_RELATIVE_CHANGE = 0.02;
/** Below the measured accepted rate by this share after a refusal (the next probe starts there). */
const GOODPUT_MARGIN = 0.95;
/** Below a bucket's measured refill rate by this share when it says nothing is left. */
const EDGE_MARGIN = 0.97;
/** How far back successes count toward the rate the upstream admitted. */
const ACCEPTED_WINDOW_MS = 1_000;
/**
 * How far back successes count toward passing the ceiling: two seconds, so that a fixed
 * window's successes counted across its reset do not pass for it.
 */
const SUSTAINED_WINDOW_MS = 2_000;
/**
 * A ceiling passed is left doubling every this many ms: a refusal ending that ramp measures the
 * successes over this span (over a second they are half the rate reached, or less).
 */
const RAMP_DOUBLING_MS = 500;
/**
 * The least time after a slow-down before a bucket's remaining count tells its refill rate (a
 * pause lets the count rise while nothing is sent).
 */
const REFILL_SETTLE_MS = 500;
/** The least sending time, since a slow-down, that measures what the upstream admits. */
const MIN_MEASURED_MS = 100;
/** Calls' time every caller pauses at a refusal that says no `Retry-After`. */
const FIRST_PAUSE_CALLS = 4;
/** Bounded this far under the ceiling before the slow-down, the limit fell. */
const FALLEN = 0.7;
/**
 * Admitted this share of the rate set or more since a slow-down, the upstream admits about what
 * is sent: a refusal then, saying no precise wait, is an echo of the slow-down.
 */
const ADMITTED_AS_SENT = 0.8;
/** Resets up to this far away may be a bucket's next token; a longer one is a window's end. */
const SHORT_RESET_MS = 1_000;

/**
 * Moves a {@link RateLimiter}'s rate to what the upstream accepts, from what it says:
 *
 * - successes double the rate every second until the first refusal (slow start);
 * - a refusal (429, 503) slows the rate to just under what the upstream admitted (over the
 *   last second, or since the last slow-down when more recent, less the pauses), else by
 *   `decreaseFactor`, and remembers it as the ceiling (refused again above it, the limit is no
 *   higher than it was, unless slow start's end guessed it from successes that lagged the
 *   ramp and the probes ran 10 % past it); further refusals with no success between (or any,
 *   once one of them bounded the limit, and any of a call sent before the slow-down, when
 *   `onRefusal` is told when it was sent; and, unless the upstream shows it is a bucket, one
 *   too soon after a ramp past a forgotten ceiling to measure, or within a second of the
 *   slow-down after 80 % of the rate set was admitted) pause every caller, twice as long
 *   each time, instead of cutting the
 *   rate by a factor again, but they bound the limit by the last second's successes: well
 *   under the ceiling (the limit fell), that count becomes the ceiling and the rate goes just
 *   under it, and, under 70 % of the ceiling before, at the first success after, halfway
 *   between that second's successes and the bound (a log admits again once under its limit);
 *   a `Retry-After` pauses them too (one in whole seconds is a bound: a second
 *   less), a bare refusal for four calls' time; once the runs of refusals show where a fixed
 *   window resets (three ended at the same point of the second), a refusal without a precise
 *   wait pauses them until that reset instead (the first of a run, only within 250 ms);
 * - after a slow-down the rate returns to 99 % of the ceiling, lingers there and probes beyond
 *   it along a cubic (TCP CUBIC, scaled to the ceiling so it takes as long at 5 calls a second
 *   as at 500), the more slowly the more often the same ceiling was confirmed; accepted 10 %
 *   past the ceiling over two seconds (or, for a bucket saying its remaining count, refilled
 *   10 % past it: the successes plus the count's rise), the ceiling is forgotten and the rate
 *   doubles every half second until the next refusal, which measures the last half second
 *   (once a fixed window's reset is known, what the refused call's window admitted: it was full);
 * - a precise `Retry-After` (`retry-after-ms`) on refusals measures the refill exactly (a
 *   bucket's next token moves on one token's time per call it admits): when a steady refill
 *   measured so moves by more than 5 %, the limit changed, so the refusal does not confirm
 *   the ceiling, the probes beyond it run twice as fast until the next refusal, and a second
 *   (not two) accepted 10 % past the ceiling forgets it;
 * - rate-limit headers cap the rate at `limit / window` when the upstream says both (in slow
 *   start, or when the limit announced rose, the rate goes there at once). With `X-RateLimit-Limit/-Remaining/-Reset` (no
 *   window), the sequence of remaining counts tells a fixed window (refilled at once, its
 *   length between refills: the rate is capped at `limit / window`, and nothing remaining
 *   pauses until the reset) from a token bucket (refilled continuously: nothing remaining,
 *   once the count was seen falling, slows to the refill rate measured from the counts,
 *   without pausing). A reset longer than
 *   a second with nothing remaining pauses.
 *
 * On a limiter with a shared store, its slow-downs, raises and the limits the upstream
 * announced are shared: a slow-down counts once per cooldown across the instances, a raise
 * keeps the higher of the shared rate and this instance's proposal (both built on the rate
 * last shared), an announced limit caps every instance (and every rate learned elsewhere),
 * and it follows what the other instances decided. The bound an echo sets is this instance's
 * own (within the cooldown of the slow-down it echoes, the store would not take it).
 *
 * @publicApi
 */
export class AdaptiveRateController {
  private readonly options: Required<AdaptiveRateOptions>;
  private slowStart = true;
  /** The ceiling before the last slow-down (infinite in slow start: none). */
  private ceilingBefore = Number.POSITIVE_INFINITY;
  private ceilingForgotten = false;
  /**
   * The rate the upstream admitted at the last slow-down, the probes' anchor, and the probes'
   * cubic beyond it.
   */
  private readonly ceiling = new CeilingProbe();
  /** The last slow-down, and the refusals, successes and pauses since (of the last second). */
  private readonly sinceDecrease = new SinceSlowDown(ACCEPTED_WINDOW_MS);
  /** A ceiling the upstream announced (`limit / window`), in calls per second. */
  private announcedRate = Number.POSITIVE_INFINITY;
  private readonly accepted = new AcceptedRate(ACCEPTED_WINDOW_MS);
  /** Successes over a longer span: a ceiling is gone only when it is passed for that long. */
  private readonly sustained = new AcceptedRate(SUSTAINED_WINDOW_MS);
  private readonly remainingCounts = new RemainingCountWatch();
  /**
   * A precise `Retry-After` measures the refill: one that moved says the limit changed (a raise
   * may show first as a refusal, a bucket's tolerance shrinking with its interval).
   */
  private readonly refill = new PreciseRefill();
  /** The last remaining count the upstream reported. */
  private lastRemaining?: number;
  /** The rate the controller aims at; the limiter follows when it moves enough. */
  private target: number;
  /** Where a fixed window resets, learnt from where runs of refusals end. */
  private readonly windowReset = new WindowReset();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    options: AdaptiveRateOptions = {},
  ) {
    assertOptions(ADAPTIVE_RATE_OPTIONS_RULE, options, 'AdaptiveRateOptions');
    this.options = { ...DEFAULT_ADAPTIVE_RATE, ...options };
    this.target = limiter.rate;
    limiter.followLearning((change) => this.follow(change));
  }

  /**
   * A call succeeded; `signals` are what its response said, when the tool passed them on.
   * `sentAt`, the clock time the call was sent, when known: after refusals it places a fixed
   * window's reset to the time calls are sent.
   */
  onSuccess(signals?: UpstreamRateSignals, sentAt?: number): void {
    const now = this.clock.now();
    this.accepted.record(now);
    this.sustained.record(now);
    this.windowReset.succeeded(now, sentAt);
    if (this.sinceDecrease.bounded && !this.sinceDecrease.succeeded) this.splitBound(now);
    this.sinceDecrease.succeeded = true;
    this.refill.succeeded();
    if (signals !== undefined) this.applyAnnouncements(signals, now);
    this.apply(this.grownRate(now), this.slowStart ? 'slow start' : 'probing');
  }

  /**
   * The upstream refused a call for its rate (429, or 503 with `Retry-After`). `sentAt`, the
   * clock time the call was sent, when known: a call sent before the last slow-down was
   * refused for the rate before it, which that slow-down already answered (an echo).
   */
  onRefusal(signals: UpstreamRateSignals = {}, sentAt?: number): void {
    const now = this.clock.now();
    const refillMoved = this.refill.refused(signals, now);
    this.windowReset.refused(now, sentAt);
    this.applyAnnouncements(signals, now);
    const sentBefore = sentAt !== undefined && sentAt < this.sinceDecrease.at;
    // What the upstream admitted, measured once: it tells an echo, and otherwise the limit.
    const filled = this.filledWindow(sentAt ?? now);
    const admitted = filled ?? this.admittedRate(now);
    if (
      sentBefore ||
      (now - this.sinceDecrease.at < this.options.decreaseCooldownMs &&
        this.isEcho(now, signals, admitted))
    ) {
      // Refused again with no success since slowing down (or for a call sent before it): the
      // upstream has nothing left for now (a full window or log, a limit that fell). Wait,
      // twice as long at each further refusal, rather than cut the rate by a factor before
      // what it admits can be measured again; but the successes of the last second bound it.
      const backoffMs = this.sinceDecrease.nextEchoPauseMs();
      this.lowerToBound(now);
      this.pause(now, Math.max(backoffMs, pauseFor(signals)), {
        sentAt,
        saidByUpstream: isPrecise(signals),
      });
      return;
    }
    const rate = this.target;
    // What the upstream admitted is the best guess of its limit (it drops at once to a
    // lowered limit, where a factor would take several refusals): over the last second, or
    // since the last slow-down when that is more recent (less the pauses, when nothing was
    // sent). Never past the ceiling remembered: refused again, the limit is no higher than it
    // was (a second of successes may straddle two windows of a fixed-window upstream, and
    // count more); unless that ceiling was a ramp's guess, passed well before this refusal.
    // Leaving slow start the ramp makes it low (a guess), so never below half the rate there
    // (as TCP); unless it counts a fixed window filled (no guess).
    const measured = Math.min(admitted ?? rate, rate, this.ceiling.capOn(rate));
    const ramped = this.slowStart && filled === undefined;
    const top = ramped ? Math.max(measured, rate / 2) : measured;
    const next = admitted === undefined ? rate * this.options.decreaseFactor : top * GOODPUT_MARGIN;
    const guessed = ramped && admitted !== undefined && admitted < rate;
    this.slowDown(now, top, next, 'the upstream refused a call', { refillMoved, guessed });
    // No `Retry-After`: a few calls' time, as the next calls would most likely be refused too.
    this.pause(
      now,
      signals.retryAfterMs === undefined ? (FIRST_PAUSE_CALLS * 1000) / rate : pauseFor(signals),
      { sentAt, saidByUpstream: isPrecise(signals) },
    );
  }

  /**
   * Ending a ramp past a forgotten ceiling into a fixed window whose reset is known, what the
   * window of the refused call (sent at `sentAt`) admitted, in calls a second: the call found
   * it full, so that is its limit (a second's successes straddle two windows, and the last
   * half second's lag the ramp). Undefined otherwise.
   */
  private filledWindow(sentAt: number): number | undefined {
    if (!this.slowStart || !this.ceilingForgotten) return undefined;
    const windowStart = this.windowReset.earliestStart(sentAt);
    if (windowStart === undefined) return undefined;
    return this.accepted.countSince(windowStart) || undefined;
  }

  /**
   * Calls a second the upstream admitted: over the last second, or since the last slow-down
   * when more recent (less the pauses since); undefined when too few calls tell.
   */
  private admittedRate(now: number): number | undefined {
    const sinceDecrease = now - this.sinceDecrease.at;
    if (sinceDecrease >= ACCEPTED_WINDOW_MS) {
      // Ramping up past a lifted ceiling, the last second's successes lag far behind the rate.
      const ramp = this.slowStart && this.ceilingForgotten;
      const recent = ramp
        ? (this.accepted.countSince(now - RAMP_DOUBLING_MS) * 1000) / RAMP_DOUBLING_MS
        : 0;
      const accepted = Math.max(this.accepted.at(now), recent);
      return accepted > 0 ? accepted : undefined;
    }
    const activeMs = sinceDecrease - this.sinceDecrease.pauses.totalUntil(now);
    const count = this.accepted.countSince(this.sinceDecrease.at);
    return count < 2 || activeMs < MIN_MEASURED_MS ? undefined : (count * 1000) / activeMs;
  }

  /**
   * A refusal soon after a slow-down is an echo of it when no call succeeded since, or when an
   * echo already bounded the limit: a full log then admits calls only as its old entries age
   * out, at the rate of a second before, so what it admits says nothing of its limit (counted
   * as news, it slowed the rate far under the limit, twice within 200 ms after a ramp).
   *
   * Unless the upstream is known to be a bucket, two more are echoes. One too soon after a ramp
   * past a forgotten ceiling to measure anything: the ramp filled the upstream far past its
   * limit, and a factor would cut the rate under it. And one within a second of the slow-down
   * after the upstream admitted 80 % or more of the rate set since: it admits about what is
   * sent (a full log as its old entries age out), and what it admitted measures the callers'
   * own stalls, not its limit (taken for news, a sliding log's rate fell from 74 to 67 against
   * a limit of 80). A bucket (telling its next token precisely, or refilling its remaining
   * count as it goes) keeps no log of what was sent, and what it admits since measures its
   * refill, which a fallen limit moves.
   */
  private isEcho(now: number, signals: UpstreamRateSignals, admitted: number | undefined): boolean {
    const { succeeded, bounded, endedRamp } = this.sinceDecrease;
    if (!succeeded || bounded) return true;
    if (isPrecise(signals) || this.remainingCounts.shape === 'bucket') return false;
    if (admitted === undefined) return endedRamp;
    const recent = now - this.sinceDecrease.at < ACCEPTED_WINDOW_MS;
    return recent && admitted >= ADMITTED_AS_SENT * this.target;
  }

  /**
   * Refused with no success since the last refusal: the upstream admits no more than the
   * successes of the last second (a window or log holds them all, a bucket refilled no more).
   * When that is well under the ceiling (the limit fell, or a window's successes counted across
   * its reset made the ceiling high), it becomes the ceiling and the rate goes just under it:
   * the calls resume near the limit when the upstream admits again.
   */
  private lowerToBound(now: number): void {
    const bound = this.accepted.at(now);
    if (bound <= 0 || !this.ceiling.wellUnder(bound)) return;
    this.sinceDecrease.bounded = true;
    this.lowerCeiling(bound, 'the upstream refused again: it admits no more than the last second');
  }

  /**
   * The first success after an echo bounded a limit that fell (under 70 % of the ceiling
   * before the slow-down): a log admits again once it holds fewer than its limit, so the last
   * second's successes now bound the limit from below as the echo's bounded it from above, and
   * the limit is taken halfway (the rate resumed at the upper bound would be refused again as
   * the log fills). Not after slow start (a ramp's last second lags the rate it reached), nor
   * once a fixed window's reset is known (a window admits again at its reset, whatever the
   * last second counted).
   */
  private splitBound(now: number): void {
    const lower = this.accepted.at(now);
    const upper = this.ceiling.value;
    const fell = Number.isFinite(this.ceilingBefore) && upper < FALLEN * this.ceilingBefore;
    if (lower >= upper || !fell || this.windowReset.next(now) !== undefined) return;
    this.lowerCeiling(
      (lower + upper) / 2,
      'the upstream admitted again: its limit lies between the counts',
    );
  }

  /** The limit is no higher than `ceiling`: the rate goes just under it, when above. */
  private lowerCeiling(ceiling: number, reason: string): void {
    this.ceiling.lowerTo(ceiling);
    const next = this.bounded(ceiling * GOODPUT_MARGIN);
    if (next >= this.target) return;
    this.ceiling.floor = next;
    this.target = next;
    this.limiter.setRate(next, reason);
  }

  /**
   * Pauses every caller for `ms` (until a fixed window's reset instead, once learnt, when the
   * refused call was sent at `sentAt`, unless `saidByUpstream`: a precise `Retry-After` or an
   * announced reset says it better), remembering the pause (nothing is sent meanwhile).
   */
  private pause(
    now: number,
    ms: number,
    refused?: { sentAt?: number; saidByUpstream: boolean },
  ): void {
    const untilReset =
      refused === undefined || refused.saidByUpstream
        ? undefined
        : this.windowReset.waitFor(now, refused.sentAt);
    if (untilReset !== undefined) ms = untilReset;
    if (ms <= 0) return;
    this.sinceDecrease.pauses.add(now, ms);
    this.limiter.pauseUntil(now + ms);
  }

  /** Takes over what another instance learned (its slow-down, a raise, an announced limit). */
  private follow(change: FollowedRateChange): void {
    if (change.kind === 'announced') {
      this.capAt(change.rate, 'another instance read the limit the upstream announced');
      return;
    }
    if (change.kind === 'paused' || change.kind === 'respaced') return;
    // A rate learned elsewhere never goes past the limit the upstream announced.
    const rate = Math.min(change.rate, this.announcedRate);
    if (change.kind === 'raised') {
      this.target = Math.max(this.target, rate);
      return;
    }
    this.slowStart = false;
    this.ceilingBefore = this.ceiling.value;
    this.ceiling.followed(change.top, rate);
    this.sinceDecrease.start(this.clock.now() - change.sinceMs, rate);
    this.target = rate;
  }

  /**
   * Slows to `next` and remembers `top` as the ceiling (`refillMoved`: the refusal's precise
   * `Retry-After` showed the limit moved; `guessed`: `top` was counted in a ramp's lag);
   * shared with the other instances.
   */
  private slowDown(
    now: number,
    top: number,
    next: number,
    reason: string,
    measure: { refillMoved?: boolean; guessed?: boolean } = {},
  ): void {
    this.ceilingBefore = this.ceiling.value;
    const endedRamp = this.slowStart && this.ceilingForgotten;
    this.slowStart = false;
    this.ceiling.slowedDown(top, this.bounded(next), now - this.sinceDecrease.at, measure);
    this.sinceDecrease.start(now, this.ceiling.floor, endedRamp);
    this.target = this.ceiling.floor;
    this.limiter.setRate(this.target, reason);
    this.limiter.shareLearning({
      kind: 'slowed',
      rate: this.target,
      top,
      cooldownMs: this.options.decreaseCooldownMs,
    });
  }

  private applyAnnouncements(signals: UpstreamRateSignals, now: number): void {
    const { limit, remaining, resetMs } = signals;
    if (remaining !== undefined) this.remainingCounts.observe(remaining, limit, now);
    const windowMs = signals.windowMs ?? this.remainingCounts.windowMs;
    if (limit !== undefined && windowMs !== undefined && windowMs > 0) {
      const announced = (limit * 1000) / windowMs;
      if (announced !== this.announcedRate)
        this.limiter.shareLearning({ kind: 'announced', rate: announced });
      this.capAt(announced, 'the upstream announced its limit');
    }
    const emptied = remaining === 0 && this.lastRemaining !== 0;
    if (remaining !== undefined) this.lastRemaining = remaining;
    if (remaining !== 0 || resetMs === undefined) return;
    // Nothing left until the reset. Paced at the announced rate already: not worth waiting
    // for a reset often rounded up to whole seconds. A bucket (or a reset within a second
    // that may be its next token): slow to its refill rate instead of waiting. Else wait.
    if (Number.isFinite(this.announcedRate) && this.target <= this.announcedRate) return;
    const shape = this.remainingCounts.shape;
    if (shape === 'bucket' || (shape === 'unknown' && resetMs <= SHORT_RESET_MS)) {
      if (emptied) this.slowToRefill(now);
      return;
    }
    this.pause(now, resetMs);
  }

  /**
   * The bucket just ran empty: the rate is past its refill rate, measured as the rate of
   * successes plus how fast the remaining count moved (it fell by the excess). Once per
   * cooldown, and never above the rate now. Not while the count is not seen falling (over half
   * a second at least): calls that left together emptied a small bucket, not the rate (with a
   * burst of 2, a stall of the callers' process slowed slow start at a fifth of the limit).
   */
  private slowToRefill(now: number): void {
    if (now - this.sinceDecrease.at < this.options.decreaseCooldownMs) return;
    const accepted = this.accepted.at(now);
    const trend = this.remainingCounts.trendPerSecond(now);
    if (trend === undefined || trend >= 0) return;
    // Falling faster than half the successes: not a bucket refilling (a window, most likely).
    const refill = accepted > 0 && accepted + trend >= accepted / 2 ? accepted + trend : undefined;
    const top = Math.min(this.target, refill ?? this.target * this.options.decreaseFactor);
    if (top >= this.target && !this.slowStart) return;
    this.slowDown(now, top, top * EDGE_MARGIN, 'the upstream said nothing remains');
  }

  /**
   * Takes `announced` (calls a second) as the ceiling, slowing to it when above; in slow start,
   * rising to it at once (what slow start looks for was said).
   */
  private capAt(announced: number, reason: string): void {
    const raised = Number.isFinite(this.announcedRate) && announced > this.announcedRate;
    this.announcedRate = announced;
    if (this.target > announced || ((this.slowStart || raised) && this.target < announced)) {
      this.target = this.bounded(announced);
      this.limiter.setRate(this.target, reason);
    }
  }

  /**
   * The ceiling was lifted: the successes ran 10 % past it over two seconds (over one, after a
   * refusal whose precise `Retry-After` showed the limit moved), or a bucket's refill rate (the
   * successes plus the rise of its remaining count) runs 10 % past it.
   */
  private ceilingLifted(now: number): boolean {
    if (this.slowStart) return false;
    const elapsed = now - this.sinceDecrease.at;
    const { ceiling } = this;
    if (elapsed >= SUSTAINED_WINDOW_MS && ceiling.passedBy(this.sustained.at(now))) return true;
    const moved = ceiling.refillMoved && elapsed >= ACCEPTED_WINDOW_MS;
    if (moved && ceiling.passedBy(this.accepted.at(now))) return true;
    if (this.remainingCounts.shape !== 'bucket' || elapsed < REFILL_SETTLE_MS) return false;
    const trend = this.remainingCounts.trendPerSecond(now);
    const accepted = this.accepted.at(now);
    return trend !== undefined && accepted > 0 && ceiling.passedBy(accepted + trend);
  }

  private grownRate(now: number): number {
    const rate = this.target;
    if (this.ceilingLifted(now)) {
      this.slowStart = true;
      this.ceilingForgotten = true;
      this.ceiling.forget();
    }
    // Doubling every second (every half second once a ceiling was passed): each success adds
    // ln 2 (or twice that) calls a second per call a second.
    if (this.slowStart) return rate + Math.LN2 * (this.ceilingForgotten ? 2 : 1);
    const seconds = (now - this.sinceDecrease.at) / 1000;
    return Math.max(rate, this.ceiling.rateAfter(seconds, this.options.growth));
  }

  private apply(rate: number, reason: string): void {
    this.target = this.bounded(rate);
    const current = this.limiter.rate;
    if (Math.abs(this.target - current) / current >= MIN_RELATIVE_CHANGE) {
      this.limiter.setRate(this.target, reason);
      if (this.target > current) this.limiter.shareLearning({ kind: 'raised', rate: this.target });
    }
  }

  /** Within `[minRate, maxRate]`, and never above what the upstream announced (even below `minRate`). */
  private bounded(rate: number): number {
    const clamped = Math.min(this.options.maxRate, Math.max(this.options.minRate, rate));
    return Math.min(clamped, this.announcedRate);
  }
}

/** The refusal said its wait otherwise than in whole delta-seconds (`retry-after-ms`, or a date). */
function isPrecise(signals: UpstreamRateSignals): boolean {
  return signals.retryAfterMs !== undefined && signals.retryAfterInWholeSeconds !== true;
}
