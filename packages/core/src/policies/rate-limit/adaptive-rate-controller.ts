import type { Clock } from '../../clock/clock.js';
import { assertOptions } from '../../options/assert-options.js';
import { ADAPTIVE_RATE_OPTIONS_RULE } from '../../options/rules/rate-limit-options.rule.js';
import { DEFAULT_ADAPTIVE_RATE, type AdaptiveRateOptions } from './rate-limit-options.js';
import type { FollowedRateChange } from './rate-limit-store.js';
import type { RateLimiter } from './rate-limiter.js';
import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/** How far back successes count toward the measured rate the upstream accepted. */
const GOODPUT_WINDOW_MS = 1_000;
/** Rate changes smaller than this share are not applied (no event spam). */
const MIN_RELATIVE_CHANGE = 0.02;
/** Below the measured accepted rate by this share after a refusal (the next probe starts there). */
const GOODPUT_MARGIN = 0.9;
/** Added to the rate per success until the first refusal: the rate about triples each second. */
const SLOW_START_STEP = 2;

/**
 * Moves a {@link RateLimiter}'s rate to what the upstream accepts, from what it says:
 *
 * - a refusal (429, 503) pauses every caller of the limiter for its `Retry-After` (a second
 *   less when it is in whole seconds, which round the upstream's wait up), and slows
 *   the rate once per cooldown: to just under the rate of successes measured over the last
 *   second when there were any (what the upstream really let through), else by
 *   `decreaseFactor`;
 * - rate-limit headers cap the rate at `limit / window` when the upstream says both, and
 *   pause callers until the reset when it says nothing is `remaining`;
 * - successes grow the rate: doubling about every second until the first refusal (slow
 *   start), then along a cubic that returns to the rate of the last refusal and probes
 *   beyond it ever faster while nothing is refused (as TCP CUBIC does), scaled to that rate
 *   so it climbs from 20 to 80 calls a second as fast as from 200 to 800.
 *
 * On a limiter with a shared store, its slow-downs, raises and the limits the upstream
 * announced are shared: a slow-down counts once per cooldown across the instances, a raise
 * keeps the higher of the shared rate and this instance's proposal (both built on the rate
 * last shared), an announced limit caps every instance, and it follows what the other
 * instances decided.
 *
 * @publicApi
 */
export class AdaptiveRateController {
  private readonly options: Required<AdaptiveRateOptions>;
  private slowStart = true;
  /** The rate at the last refusal, and when it came. */
  private lastRefusalRate = 0;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  /** The rate right after the last slow-down, the cubic's floor. */
  private rateAfterDecrease = 0;
  /** A ceiling the upstream announced (`limit / window`), in calls per second. */
  private announcedRate = Number.POSITIVE_INFINITY;
  private readonly successTimes: number[] = [];
  /** The rate the controller aims at; the limiter follows when it moves enough. */
  private target: number;

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

  /** A call succeeded; `signals` are what its response said, when the tool passed them on. */
  onSuccess(signals?: UpstreamRateSignals): void {
    const now = this.clock.now();
    this.recordSuccess(now);
    if (signals !== undefined) this.applyAnnouncements(signals, now);
    this.apply(this.grownRate(now), this.slowStart ? 'slow start' : 'probing');
  }

  /** The upstream refused a call for its rate (429, or 503 with `Retry-After`). */
  onRefusal(signals: UpstreamRateSignals = {}): void {
    const now = this.clock.now();
    if (signals.retryAfterMs !== undefined) this.limiter.pauseUntil(now + pauseFor(signals));
    this.applyAnnouncements(signals, now);
    if (now - this.lastDecreaseAt < this.options.decreaseCooldownMs) return;
    const rate = this.target;
    const accepted = this.acceptedRate(now);
    // What the upstream let through over the last second is the best guess of its limit (it
    // drops at once to a lowered limit, where a factor would take several refusals). Leaving
    // slow start the ramp makes it low, so never below half the rate there (as TCP).
    const measured = accepted > 0 ? Math.min(rate, accepted) : rate;
    const top = this.slowStart ? Math.max(measured, rate / 2) : measured;
    const next = accepted > 0 ? top * GOODPUT_MARGIN : rate * this.options.decreaseFactor;
    this.slowStart = false;
    this.lastRefusalRate = top;
    this.lastDecreaseAt = now;
    this.rateAfterDecrease = this.bounded(next);
    this.target = this.rateAfterDecrease;
    this.limiter.setRate(this.target, 'the upstream refused a call');
    this.limiter.shareLearning({
      kind: 'slowed',
      rate: this.target,
      top,
      cooldownMs: this.options.decreaseCooldownMs,
    });
  }

  /** Takes over what another instance learned (its slow-down, a raise, an announced limit). */
  private follow(change: FollowedRateChange): void {
    if (change.kind === 'announced') {
      this.capAt(change.rate, 'another instance read the limit the upstream announced');
      return;
    }
    // A rate learned elsewhere never goes past the limit the upstream announced.
    const rate = Math.min(change.rate, this.announcedRate);
    if (change.kind === 'raised') {
      this.target = Math.max(this.target, rate);
      return;
    }
    if (change.kind !== 'slowed') return;
    this.slowStart = false;
    this.lastRefusalRate = change.top;
    this.rateAfterDecrease = rate;
    this.lastDecreaseAt = this.clock.now() - change.sinceMs;
    this.target = rate;
  }

  private applyAnnouncements(signals: UpstreamRateSignals, now: number): void {
    if (signals.limit !== undefined && signals.windowMs !== undefined && signals.windowMs > 0) {
      const announced = (signals.limit * 1000) / signals.windowMs;
      if (announced !== this.announcedRate)
        this.limiter.shareLearning({ kind: 'announced', rate: announced });
      this.capAt(announced, 'the upstream announced its limit');
    }
    // Nothing left until the reset: wait for it, unless the limiter already paces at the
    // announced rate (then the reset, often rounded up to whole seconds, is not worth waiting).
    const pacedToAnnouncement =
      Number.isFinite(this.announcedRate) && this.target <= this.announcedRate;
    if (signals.remaining === 0 && signals.resetMs !== undefined && !pacedToAnnouncement) {
      this.limiter.pauseUntil(now + signals.resetMs);
    }
  }

  /** Takes `announced` (calls a second) as the ceiling, slowing to it when above. */
  private capAt(announced: number, reason: string): void {
    this.announcedRate = announced;
    if (this.target > announced) {
      this.target = this.bounded(announced);
      this.limiter.setRate(this.target, reason);
    }
  }

  private grownRate(now: number): number {
    const rate = this.target;
    if (this.slowStart) return rate + SLOW_START_STEP;
    const { growth } = this.options;
    const seconds = (now - this.lastDecreaseAt) / 1000;
    const top = Math.max(this.lastRefusalRate, this.rateAfterDecrease);
    // The cubic of TCP CUBIC relative to the refused rate, so it takes as long at 5 calls a
    // second as at 500: back to `top` after k seconds, flat near it, then ever faster beyond.
    const k = Math.cbrt((1 - this.rateAfterDecrease / top) / growth);
    const cubic = top * (1 + growth * (seconds - k) ** 3);
    return Math.max(rate, this.rateAfterDecrease, cubic);
  }

  private apply(rate: number, reason: string): void {
    this.target = this.bounded(rate);
    const current = this.limiter.rate;
    if (Math.abs(this.target - current) / current >= MIN_RELATIVE_CHANGE) {
      this.limiter.setRate(this.target, reason);
      if (this.target > current) this.limiter.shareLearning({ kind: 'raised', rate: this.target });
    }
  }

  private recordSuccess(now: number): void {
    this.successTimes.push(now);
    this.forgetSuccessesBefore(now - GOODPUT_WINDOW_MS);
  }

  /** Successes per second over the last window, or 0 when there is too little to tell. */
  private acceptedRate(now: number): number {
    this.forgetSuccessesBefore(now - GOODPUT_WINDOW_MS);
    return this.successTimes.length < 2 ? 0 : (this.successTimes.length * 1000) / GOODPUT_WINDOW_MS;
  }

  private forgetSuccessesBefore(cutoff: number): void {
    while (this.successTimes.length > 0 && (this.successTimes[0] as number) <= cutoff) {
      this.successTimes.shift();
    }
  }

  /** Within `[minRate, maxRate]`, and never above what the upstream announced (even below `minRate`). */
  private bounded(rate: number): number {
    const clamped = Math.min(this.options.maxRate, Math.max(this.options.minRate, rate));
    return Math.min(clamped, this.announcedRate);
  }
}

/**
 * How long every caller pauses for a refusal's `Retry-After`. One in whole seconds is the
 * upstream's wait rounded up to the header's unit (a token bucket ready again in 20 ms says
 * 1 s), and pausing every caller for all of it idles them for most of a second at each
 * refusal: the pause is then a second less, the least the upstream can have meant, and the
 * slow-down paces what follows. The refused call itself still waits its whole `Retry-After`
 * before a retry.
 */
function pauseFor({ retryAfterMs = 0, retryAfterInWholeSeconds }: UpstreamRateSignals): number {
  return retryAfterInWholeSeconds === true ? Math.max(0, retryAfterMs - 1000) : retryAfterMs;
}
