/** Accepted past the ceiling by this share, the ceiling is gone (slow start again). */
const STALE_CEILING = 1.1;
/** The share of the ceiling the rate returns to and lingers at before probing beyond it. */
const PLATEAU = 0.99;
/** The confidence in the ceiling halves every this many ms without a refusal near it. */
const CONFIDENCE_HALF_LIFE_MS = 10_000;
/** The most the confidence reaches: probes beyond the ceiling are at most this much slower, + 1. */
const MAX_CONFIDENCE = 3;
/** How much faster the probes run after a precise `Retry-After` showed the limit moved. */
const MOVED_GROWTH = 2;

/**
 * The ceiling an adaptive controller probes beyond: the rate the upstream admitted at the last
 * slow-down, how often it was confirmed lately, and the cubic the rate follows back to it and
 * past it (TCP CUBIC, scaled to the ceiling so it takes as long at 5 calls a second as at 500).
 *
 * A ceiling found afresh (the first, or the first after one was forgotten) counts as confirmed
 * once; refused again near it (within a tenth) confirms it again: the more often, the slower
 * the probes beyond it. The confidence halves every 10 s without a confirmation; a ceiling that
 * moved, or a refill that moved (measured by a precise `Retry-After`), starts afresh at none,
 * and then the probes run twice as fast.
 *
 * @internal
 */
export class CeilingProbe {
  private ceiling = Number.POSITIVE_INFINITY;
  private rateAfterDecrease = 0;
  private confidence = 0;
  private moved = false;
  private guessed = false;

  /** The ceiling, in calls a second: infinite until the first slow-down and once forgotten. */
  get value(): number {
    return this.ceiling;
  }

  /** The rate right after the last slow-down, the cubic's floor. */
  get floor(): number {
    return this.rateAfterDecrease;
  }

  set floor(rate: number) {
    this.rateAfterDecrease = rate;
  }

  /** The last slow-down's precise `Retry-After` showed the limit moved. */
  get refillMoved(): boolean {
    return this.moved;
  }

  /**
   * Refused at `top` calls a second, `sinceLastMs` after the slow-down before: `top` is the
   * ceiling now (confirmed when near the last one), and the rate goes to `floor`. `guessed`:
   * `top` was counted where the successes lagged the rate (a ramp's last second).
   */
  slowedDown(
    top: number,
    floor: number,
    sinceLastMs: number,
    { refillMoved = false, guessed = false }: { refillMoved?: boolean; guessed?: boolean } = {},
  ): void {
    this.moved = refillMoved;
    this.guessed = guessed;
    const afresh = !Number.isFinite(this.ceiling);
    const near =
      !refillMoved &&
      (afresh || Math.abs(top - this.ceiling) <= this.ceiling * (STALE_CEILING - 1));
    const held = this.confidence * 2 ** (-sinceLastMs / CONFIDENCE_HALF_LIFE_MS);
    this.confidence = near ? Math.min(MAX_CONFIDENCE, held + 1) : 0;
    this.ceiling = top;
    this.rateAfterDecrease = floor;
  }

  /** Takes another instance's slow-down: `top` is the ceiling, and the rate goes to `floor`. */
  followed(top: number, floor: number): void {
    this.moved = false;
    this.guessed = false;
    this.ceiling = top;
    this.rateAfterDecrease = floor;
  }

  /** The upstream admits no more than `bound` calls a second: that is the ceiling now. */
  lowerTo(bound: number): void {
    this.ceiling = bound;
    this.guessed = false;
  }

  /** The ceiling is gone (passed well, unrefused): slow start looks for the limit again. */
  forget(): void {
    this.ceiling = Number.POSITIVE_INFINITY;
    this.confidence = 0;
    this.guessed = false;
  }

  /**
   * The most a refusal at `rate` may measure: the ceiling (refused again, the limit is no
   * higher than it was), unless the ceiling was guessed from a ramp's lagging count and the
   * rate ran a tenth or more past it before the refusal (the guess was low).
   */
  capOn(rate: number): number {
    return this.guessed && this.passedBy(rate) ? Number.POSITIVE_INFINITY : this.ceiling;
  }

  /** `rate` runs a tenth or more past the ceiling. */
  passedBy(rate: number): boolean {
    return rate > this.ceiling * STALE_CEILING;
  }

  /** `rate` is a tenth or more under the ceiling. */
  wellUnder(rate: number): boolean {
    return rate * STALE_CEILING < this.ceiling;
  }

  /**
   * The probes' rate `seconds` after the last slow-down, for the option `growth`: back at 99 %
   * of the ceiling after k seconds, flat near it, then ever faster beyond.
   */
  rateAfter(seconds: number, growth: number): number {
    const scaled = (growth * (this.moved ? MOVED_GROWTH : 1)) / (1 + this.confidence);
    const plateau = Math.max(this.ceiling * PLATEAU, this.rateAfterDecrease);
    const k = Math.cbrt((1 - this.rateAfterDecrease / plateau) / scaled);
    return Math.max(this.rateAfterDecrease, plateau * (1 + scaled * (seconds - k) ** 3));
  }
}
