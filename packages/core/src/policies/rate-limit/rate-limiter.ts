import type { AbortSignalLike } from '../../clock/abort-signal-like.js';
import type { CancelTimer, Clock } from '../../clock/clock.js';
import { RateLimitedError } from '../../errors/rate-limited.error.js';
import { assertOptions } from '../../options/assert-options.js';
import { RATE_LIMIT_OPTIONS_RULE } from '../../options/rules/rate-limit-options.rule.js';
import { cancellationError } from '../cancellation.js';
import { GcraSchedule } from './gcra-schedule.js';
import { RATE_LIMIT_KEY_METADATA } from './upstream-refusal.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit-options.js';

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
 * @example
 * const limiter = new RateLimiter('search-api', { rate: 50, burst: 5 }, new SystemClock());
 * await limiter.acquire({ signal });
 * const response = await fetch(url, { signal });
 * @publicApi
 */
export class RateLimiter {
  private readonly schedule: GcraSchedule;
  private readonly maxWaitMs: number;
  private readonly maxQueue: number;
  private readonly queue: Waiter[] = [];
  private cancelTimer?: CancelTimer;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    readonly key: string,
    options: RateLimitOptions,
    private readonly clock: Clock,
    private readonly observe?: (event: RateLimitEvent) => void,
  ) {
    assertOptions(RATE_LIMIT_OPTIONS_RULE, options, 'RateLimitOptions');
    this.schedule = new GcraSchedule(
      options.rate ?? DEFAULT_RATE_LIMIT.rate,
      options.burst ?? DEFAULT_RATE_LIMIT.burst,
    );
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_RATE_LIMIT.maxWaitMs;
    this.maxQueue = options.maxQueue ?? DEFAULT_RATE_LIMIT.maxQueue;
  }

  /** Calls per second now. */
  get rate(): number {
    return this.schedule.rate;
  }

  /** Calls waiting now. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Takes a slot now if one is free and nobody waits: `true`, and the call may go. `false`
   * means the caller must {@link acquire}. No allocation either way.
   */
  tryAcquire(): boolean {
    if (this.queue.length > 0) return false;
    const now = this.clock.now();
    if (this.schedule.nextAt(now) > now) return false;
    this.schedule.take(now);
    return true;
  }

  /** Resolves when the call may go; rejects with `rate_limited` or the abort reason. */
  acquire(options: AcquireOptions = {}): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
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
   * Sets the rate from now on (an adaptive controller's decision). Waiters whose turn now
   * falls past their deadline leave with `rate_limited`.
   */
  setRate(rate: number, reason: string): void {
    if (rate === this.schedule.rate) return;
    this.schedule.setRate(rate, this.clock.now());
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
    const now = this.clock.now();
    return {
      key: this.key,
      rate: this.schedule.rate,
      queued: this.queue.length,
      nextAtMs: this.schedule.nextAt(now),
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

  /** When the call at queue position `position` would leave, if the rate holds. */
  private estimatedStart(now: number, position: number): number {
    return this.schedule.nextAt(now) + position * this.schedule.interval;
  }

  private refuse(waitMs: number, reason: 'wait' | 'queue'): Promise<never> {
    const retryAfterMs = Math.max(1, Math.ceil(waitMs));
    this.observe?.({ kind: 'refused', retryAfterMs, reason });
    const why =
      reason === 'queue'
        ? `${this.queue.length} calls are already waiting`
        : `the next slot is ${retryAfterMs} ms away, past the call's deadline`;
    return Promise.reject(this.refusal(retryAfterMs, why));
  }

  private refusal(retryAfterMs: number, why: string): RateLimitedError {
    return new RateLimitedError(
      `Client-side rate limit of ${formatRate(this.rate)} for ${this.key}: ${why}`,
      {
        retryAfterMs,
        captureStack: false,
        metadata: { [RATE_LIMIT_KEY_METADATA]: this.key, rate: this.rate },
      },
    );
  }

  /** Lets out every waiter whose turn has come, then arms the timer for the next. */
  private release = (): void => {
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    while (this.queue.length > 0 && this.schedule.nextAt(now) <= now) {
      const waiter = this.queue.shift() as Waiter;
      this.schedule.take(now);
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
      const retryAfterMs = Math.max(1, Math.ceil(startsAt - now));
      this.observe?.({ kind: 'refused', retryAfterMs, reason: 'wait' });
      waiter.reject(
        this.refusal(
          retryAfterMs,
          `it slowed down and the call's turn is ${retryAfterMs} ms away, past its deadline`,
        ),
      );
    }
  }
}

function formatRate(rate: number): string {
  return `${Number.isInteger(rate) ? rate : rate.toFixed(1)}/s`;
}
