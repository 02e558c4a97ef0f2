import type { AbortSignalLike } from '../../clock/abort-signal-like.js';
import type { CancelTimer, Clock } from '../../clock/clock.js';
import { RateLimitedError } from '../../errors/rate-limited.error.js';
import { assertOptions } from '../../options/assert-options.js';
import { cancellationError } from '../cancellation.js';
import { defaultRateController } from './default-rate-controller.js';
import { GcraSchedule } from './gcra-schedule.js';
import { isRateController, type RateController, type RateDecision } from './rate-controller.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit-options.js';
import { RATE_LIMIT_OPTIONS_RULE } from './rate-limit-options.rule.js';
import { RATE_LIMIT_KEY_METADATA } from './upstream-refusal.js';
import type { UpstreamRateSignals } from './upstream-rate-signals.js';

/** What a limiter tells its observer. @publicApi */
export type RateLimitEvent =
  | { readonly kind: 'waiting'; readonly waitMs: number; readonly queued: number }
  | { readonly kind: 'refused'; readonly retryAfterMs: number; readonly reason: 'wait' | 'queue' }
  | { readonly kind: 'rate_changed'; readonly rate: number; readonly reason: string }
  | { readonly kind: 'paused'; readonly untilMs: number };

/** Facts about a limiter now. @publicApi */
export interface RateLimiterSnapshot {
  readonly key: string;
  /** Calls per second now. */
  readonly rate: number;
  /** Calls waiting. */
  readonly queued: number;
  /** When the next call may leave (clock ms). */
  readonly nextAtMs: number;
}

/** How one call asks for a slot. @publicApi */
export interface AcquireOptions {
  /** Aborting it takes the call out of the queue (rejecting with the abort reason). */
  readonly signal?: AbortSignalLike;
  /** The clock time after which waiting is pointless (the call's budget); caps `maxWaitMs`. */
  readonly deadlineMs?: number;
  /** Told the expected wait when the call has to queue. */
  readonly onWait?: (waitMs: number) => void;
}

interface Waiter {
  readonly deadlineMs: number;
  readonly signal?: AbortSignalLike;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

/**
 * A client-side rate limiter: a GCRA token bucket with a FIFO queue on an injected clock.
 * A call leaves at once when the bucket allows; otherwise it waits its turn, unless its wait
 * would pass `maxWaitMs` or its own deadline, in which case it fails at once with a
 * `RateLimitedError` whose `retryAfterMs` is the wait it would have had. A waiting call
 * leaves the queue when its signal aborts, or with `rate_limited` when a slow-down pushes
 * its turn past its deadline. One timer at most is armed, for the head of the queue.
 *
 * With `adaptive`, tell it every answer of the upstream ({@link admitted}, {@link refused}):
 * its {@link RateController} moves the rate and pauses the callers. This one decides alone,
 * in memory; a {@link RateLimitStore} (`@toolshield/redis`) makes limiters with the same
 * interface that share each key's schedule across instances.
 *
 * @example
 * const limiter = new RateLimiter('search-api', { rate: 10, adaptive: true }, new SystemClock());
 * await limiter.acquire({ signal });
 * const sentAt = clock.now();
 * const response = await fetch(url, { signal });
 * const signals = readUpstreamRateSignals(response.headers, Date.now());
 * if (response.status === 429) limiter.refused(signals, sentAt);
 * else limiter.admitted(signals, sentAt);
 * @publicApi
 */
export class RateLimiter {
  private readonly schedule: GcraSchedule;
  protected readonly burst: number;
  protected readonly maxWaitMs: number;
  protected readonly maxQueue: number;
  protected readonly deliveryJitterMs: number;
  /** What moves the rate (`adaptive`), told every answer of the upstream. */
  protected readonly controller?: RateController;
  private readonly queue: Waiter[] = [];
  private cancelTimer?: CancelTimer;
  private timerAt = Number.POSITIVE_INFINITY;
  private currentRate: number;

  constructor(
    readonly key: string,
    options: RateLimitOptions,
    protected readonly clock: Clock,
    protected readonly observe?: (event: RateLimitEvent) => void,
  ) {
    assertOptions(RATE_LIMIT_OPTIONS_RULE, options, 'RateLimitOptions');
    this.currentRate = options.rate ?? DEFAULT_RATE_LIMIT.rate;
    this.burst = options.burst ?? DEFAULT_RATE_LIMIT.burst;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_RATE_LIMIT.maxWaitMs;
    this.maxQueue = options.maxQueue ?? DEFAULT_RATE_LIMIT.maxQueue;
    this.deliveryJitterMs = options.deliveryJitterMs ?? DEFAULT_RATE_LIMIT.deliveryJitterMs;
    this.schedule = new GcraSchedule(this.pacingRate(), this.burst);
    const { adaptive } = options;
    if (isRateController(adaptive)) this.controller = adaptive;
    else if (adaptive)
      this.controller = defaultRateController(this.currentRate, adaptive === true ? {} : adaptive);
  }

  /** Calls per second now (on a shared store: the shared rate). */
  get rate(): number {
    return this.currentRate;
  }

  /** The limiter adapts its rate (`adaptive`): it wants to hear the upstream's answers. */
  get adaptive(): boolean {
    return this.controller !== undefined;
  }

  /** Calls waiting now. */
  get queued(): number {
    return this.queue.length;
  }

  /** A slot now if one is free and nobody waits (`true`: go), else `false`: {@link acquire}. */
  tryAcquire(): boolean {
    return this.takeSlot();
  }

  /** Resolves when the call may go; rejects with `rate_limited` or the abort reason. */
  acquire(options: AcquireOptions = {}): Promise<void> {
    if (this.takeSlot()) return Promise.resolve();
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancellationError(signal.reason));
    const now = this.clock.now();
    const waitMs = this.estimatedStart(now, this.queue.length) - now;
    const deadlineMs = Math.min(now + this.maxWaitMs, options.deadlineMs ?? Infinity);
    if (this.queue.length >= this.maxQueue) return this.refuse(waitMs, 'queue');
    if (now + waitMs > deadlineMs) return this.refuse(waitMs, 'wait');
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        deadlineMs,
        signal,
        resolve,
        reject,
        onAbort: () => {
          this.remove(waiter);
          reject(cancellationError(signal?.reason));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.observe?.({ kind: 'waiting', waitMs, queued: this.queue.length });
      options.onWait?.(waitMs);
      this.arm();
    });
  }

  /**
   * The upstream admitted a call sent at clock time `sentAtMs` (default now); `signals`: its
   * response's rate-limit headers ({@link readUpstreamRateSignals}). Only an adaptive limiter
   * listens.
   */
  admitted(signals: UpstreamRateSignals = {}, sentAtMs?: number): void {
    const nowMs = this.clock.now();
    this.apply(this.controller?.admitted({ sentAtMs: sentAtMs ?? nowMs, nowMs, signals }));
  }

  /**
   * The upstream refused a call sent at clock time `sentAtMs` (default now) for its rate (429,
   * or 503 with `Retry-After`); `signals`: what the refusal said ({@link readUpstreamRefusal}).
   */
  refused(signals: UpstreamRateSignals = {}, sentAtMs?: number): void {
    const nowMs = this.clock.now();
    this.apply(this.controller?.refused({ sentAtMs: sentAtMs ?? nowMs, nowMs, signals }));
  }

  /** Sets the rate from now on; waiters whose turn falls past their deadline get `rate_limited`. */
  setRate(rate: number, reason: string): void {
    if (rate === this.currentRate) return;
    const fell = rate < this.currentRate;
    this.currentRate = rate;
    if (fell) this.rateFell();
    this.schedule.setRate(this.pacingRate(), this.clock.now());
    this.observe?.({ kind: 'rate_changed', rate, reason });
    this.dropLateWaiters();
    this.rearm();
  }

  /** Holds every call back until clock time `untilMs` (an upstream's `Retry-After`). */
  pauseUntil(untilMs: number): void {
    const before = this.schedule.nextAt(this.clock.now());
    this.schedule.pause(untilMs);
    if (this.schedule.nextAt(this.clock.now()) === before) return;
    this.observe?.({ kind: 'paused', untilMs });
    this.dropLateWaiters();
    this.rearm();
  }

  /** Facts about the limiter now. */
  snapshot(): RateLimiterSnapshot {
    return {
      key: this.key,
      rate: this.currentRate,
      queued: this.queued,
      nextAtMs: this.schedule.nextAt(this.clock.now()),
    };
  }

  /** Rejects every waiter (the application is shutting down) and disarms the timer. */
  close(reason: unknown): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(cancellationError(reason));
    }
  }

  /** Applies a controller's decision: its rate, then its pause. */
  protected apply(decision: RateDecision | undefined): void {
    if (decision === undefined) return;
    if (decision.kind !== 'held') this.setRate(decision.rate, decision.reason);
    if (decision.pauseUntilMs !== undefined) this.pauseUntil(decision.pauseUntilMs);
  }

  /** Until when the own schedule holds every call back (a pause). */
  protected get pausedUntilMs(): number {
    return this.schedule.pausedUntilMs;
  }

  /**
   * Paces the own schedule at `rate` (calls a second) from now on, no call leaving before
   * clock time `notBefore` (a shared limiter falling back to it, after the slots it holds).
   */
  protected paceOwnSchedule(rate: number, notBefore?: number): void {
    if (Math.abs(rate - this.schedule.rate) > 1e-9 * rate)
      this.schedule.setRate(rate, this.clock.now());
    if (notBefore !== undefined && this.schedule.nextAt(notBefore) <= notBefore)
      this.schedule.take(notBefore);
  }

  /** The rate fell (a shared limiter moves its reserved slots apart). */
  protected rateFell(): void {
    // Alone: the waiting calls are spaced by the schedule already.
  }

  /** The rate calls leave at: the rate, less the delivery allowance (`deliveryJitterMs`). */
  protected pacingRate(): number {
    return (this.currentRate * 1000) / (1000 + this.deliveryJitterMs);
  }

  protected refuse(waitMs: number, reason: 'wait' | 'queue'): Promise<never> {
    const retryAfterMs = Math.max(1, Math.ceil(waitMs));
    this.observe?.({ kind: 'refused', retryAfterMs, reason });
    const why =
      reason === 'queue'
        ? `${this.queued} calls are already waiting`
        : `the next slot is ${retryAfterMs} ms away, past the call's deadline`;
    return Promise.reject(this.refusal(retryAfterMs, why));
  }

  /** The refusal of a waiting call whose turn a slow-down or a pause pushed past its deadline. */
  protected lateRefusal(waitMs: number): RateLimitedError {
    const retryAfterMs = Math.max(1, Math.ceil(waitMs));
    this.observe?.({ kind: 'refused', retryAfterMs, reason: 'wait' });
    return this.refusal(
      retryAfterMs,
      `it slowed down and the call's turn is ${retryAfterMs} ms away, past its deadline`,
    );
  }

  private refusal(retryAfterMs: number, why: string): RateLimitedError {
    const rate = Number.isInteger(this.rate) ? this.rate : this.rate.toFixed(1);
    return new RateLimitedError(`Client-side rate limit of ${rate}/s for ${this.key}: ${why}`, {
      retryAfterMs,
      captureStack: false,
      metadata: { [RATE_LIMIT_KEY_METADATA]: this.key, rate: this.rate },
    });
  }

  private takeSlot(): boolean {
    if (this.queue.length > 0) return false;
    const now = this.clock.now();
    if (this.schedule.nextAt(now) > now) return false;
    this.schedule.take(now);
    return true;
  }

  /** When the call at queue position `position` would leave, if the rate holds. */
  private estimatedStart(now: number, position: number): number {
    return this.schedule.nextAt(now) + position * this.schedule.interval;
  }

  /** Lets out every waiter whose turn has come, then arms the timer for the next. */
  private release = (): void => {
    const dueAt = this.timerAt;
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    while (this.queue.length > 0 && this.schedule.nextAt(now) <= now) {
      const waiter = this.queue.shift() as Waiter;
      // The timer's lateness is made up (up to half an interval), unless the upstream's limit
      // is held at the upstream (`deliveryJitterMs`): a late call then moves the next one on.
      if (this.deliveryJitterMs > 0) this.schedule.take(now);
      else this.schedule.takeLate(now, dueAt);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
    this.arm();
  };

  private arm(): void {
    if (this.queue.length === 0) return;
    const now = this.clock.now();
    const at = this.schedule.nextAt(now);
    if (at >= this.timerAt) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.clock.setTimer(this.release, at - now);
  }

  private rearm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.arm();
  }

  private remove(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index >= 0) this.queue.splice(index, 1);
    if (index === 0) this.rearm();
  }

  private dropLateWaiters(): void {
    const now = this.clock.now();
    let position = 0;
    for (const waiter of [...this.queue]) {
      const startsAt = this.estimatedStart(now, position);
      if (startsAt <= waiter.deadlineMs) {
        position++;
        continue;
      }
      this.remove(waiter);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(this.lateRefusal(startsAt - now));
    }
  }
}
