import type { AbortSignalLike } from '../../clock/abort-signal-like.js';
import type { CancelTimer, Clock } from '../../clock/clock.js';
import { RateLimitedError } from '../../errors/rate-limited.error.js';
import { assertOptions } from '../../options/assert-options.js';
import { RATE_LIMIT_OPTIONS_RULE } from './rate-limit-options.rule.js';
import { cancellationError } from '../cancellation.js';
import { GcraSchedule } from './gcra-schedule.js';
import { RATE_LIMIT_KEY_METADATA } from './upstream-refusal.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit-options.js';
import type {
  FollowedRateChange,
  RateLimitSlot,
  RateLimitStore,
  SharedRateChange,
  SharedRateLimiterHandle,
} from './rate-limit-store.js';
import { ReservedSlots, type Waiter } from './reserved-slots.js';

/**
 * How late after its reserved slot a call on a shared store may still leave, at least: a
 * timer's ordinary lateness, not a stall. Later than this (or than a quarter of the delivery
 * allowance, when larger), the slot is given up.
 */
const MIN_LATE_TOLERANCE_MS = 5;

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

/**
 * A client-side rate limiter: a GCRA token bucket with a FIFO queue on an injected clock.
 * A call leaves at once when the bucket allows; otherwise it waits its turn, unless its wait
 * would pass `maxWaitMs` or its own deadline, in which case it fails at once with a
 * `RateLimitedError` whose `retryAfterMs` is the wait it would have had. A waiting call
 * leaves the queue when its signal aborts, or with `rate_limited` when a slow-down pushes
 * its turn past its deadline. One timer at most is armed, for the head of the queue.
 *
 * Given a {@link RateLimitStore}, the limiter takes every slot from the store's schedule of
 * its key, shared with every other instance on the store (one reservation per call, in
 * arrival order), and shares its pauses and rate changes; while the store cannot be reached
 * it decides on its own schedule at the store's `fallbackRate`.
 *
 * @example
 * const limiter = new RateLimiter('search-api', { rate: 50, burst: 5 }, new SystemClock());
 * await limiter.acquire({ signal });
 * const response = await fetch(url, { signal });
 * @publicApi
 */
export class RateLimiter {
  private readonly schedule: GcraSchedule;
  private readonly burst: number;
  private readonly maxWaitMs: number;
  private readonly maxQueue: number;
  private readonly deliveryJitterMs: number;
  private readonly queue: Waiter[] = [];
  private cancelTimer?: CancelTimer;
  private timerAt = Number.POSITIVE_INFINITY;
  private currentRate: number;
  /** Shared mode: calls holding a reserved slot, calls whose reservation is on its way. */
  private readonly reserved?: ReservedSlots;
  private reserving = 0;
  /** Shared mode: until the store told this limiter what the instances learned so far. */
  private joining?: Promise<void>;
  private closedWith?: { readonly reason: unknown };
  private learner?: (change: FollowedRateChange) => void;
  /** The last limit another instance read in the upstream's announcement. */
  private announced?: Extract<FollowedRateChange, { kind: 'announced' }>;
  /** The rate is one another instance learned (not only the configured one). */
  private followsLearned = false;

  constructor(
    readonly key: string,
    options: RateLimitOptions,
    private readonly clock: Clock,
    private readonly observe?: (event: RateLimitEvent) => void,
    private readonly store?: RateLimitStore,
  ) {
    assertOptions(RATE_LIMIT_OPTIONS_RULE, options, 'RateLimitOptions');
    this.currentRate = options.rate ?? DEFAULT_RATE_LIMIT.rate;
    this.burst = options.burst ?? DEFAULT_RATE_LIMIT.burst;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_RATE_LIMIT.maxWaitMs;
    this.maxQueue = options.maxQueue ?? DEFAULT_RATE_LIMIT.maxQueue;
    this.deliveryJitterMs = options.deliveryJitterMs ?? DEFAULT_RATE_LIMIT.deliveryJitterMs;
    this.schedule = new GcraSchedule(this.localRate(), this.burst);
    if (store !== undefined) {
      const lateToleranceMs = Math.max(MIN_LATE_TOLERANCE_MS, this.deliveryJitterMs / 4);
      this.reserved = new ReservedSlots(clock, lateToleranceMs);
      const joined = store.attach?.(this.handle());
      const done = () => (this.joining = undefined);
      if (joined !== undefined) this.joining = joined.then(done, done);
    }
  }

  /** Calls per second now (with a store: the shared rate, whatever this instance paces at alone). */
  get rate(): number {
    return this.currentRate;
  }

  /** Calls waiting now. */
  get queued(): number {
    return this.queue.length + this.reserving + (this.reserved?.size ?? 0);
  }

  /**
   * Takes a slot now if one is free and nobody waits: `true`, and the call may go. `false`
   * means the caller must {@link acquire} (always, on a shared store: a slot is reserved
   * there). No allocation either way.
   */
  tryAcquire(): boolean {
    if (this.store !== undefined || this.queue.length > 0) return false;
    return this.takeLocalSlot();
  }

  private takeLocalSlot(): boolean {
    const now = this.clock.now();
    if (this.schedule.nextAt(now) > now) return false;
    this.schedule.take(now);
    return true;
  }

  /** Resolves when the call may go; rejects with `rate_limited` or the abort reason. */
  acquire(options: AcquireOptions = {}): Promise<void> {
    const { store, joining } = this;
    if (store === undefined) return this.acquireLocally(options);
    return joining === undefined
      ? this.reserve(store, options)
      : this.afterJoin(store, joining, options);
  }

  /**
   * A call made before the store told this limiter what the instances learned (a limit another
   * instance read, a slow-down): it reserves once this limiter follows that, in arrival order,
   * rather than at the configured rate.
   */
  private afterJoin(
    store: RateLimitStore,
    joining: Promise<void>,
    options: AcquireOptions,
  ): Promise<void> {
    this.reserving++;
    return joining.then(() => {
      this.reserving--;
      if (this.closedWith !== undefined) throw cancellationError(this.closedWith.reason);
      return this.reserve(store, options);
    });
  }

  private acquireLocally(
    options: AcquireOptions,
    queued?: (waiter: Waiter) => void,
  ): Promise<void> {
    if (this.store !== undefined) this.paceAfterReserved();
    if (this.queue.length === 0 && this.takeLocalSlot()) return Promise.resolve();
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
      queued?.(waiter);
      this.observe?.({ kind: 'waiting', waitMs, queued: this.queue.length });
      options.onWait?.(waitMs);
      this.arm();
    });
  }

  /**
   * Sets the rate from now on (an adaptive controller's decision). Waiters whose turn now
   * falls past their deadline leave with `rate_limited`. On a store, the other instances
   * learn of the rate only through {@link shareLearning}; a fall also moves the slots already
   * reserved apart to the new spacing (every instance's, once), as it spaces waiting calls.
   */
  setRate(rate: number, reason: string): void {
    if (rate === this.currentRate) return;
    const fell = rate < this.currentRate;
    this.currentRate = rate;
    if (fell) this.store?.share(this.key, { kind: 'spaced', intervalMs: 1000 / this.pacingRate() });
    this.schedule.setRate(this.localRate(), this.clock.now());
    this.observe?.({ kind: 'rate_changed', rate, reason });
    this.dropLateWaiters();
    this.rearm();
  }

  /**
   * Holds every call back until clock time `untilMs` (an upstream's `Retry-After`). On a
   * store, every instance holds back (slots already reserved move past the pause).
   */
  pauseUntil(untilMs: number): void {
    const now = this.clock.now();
    this.pauseLocally(untilMs, untilMs - Math.max(now, this.schedule.pausedUntilMs));
    this.store?.share(this.key, { kind: 'paused', forMs: untilMs - now });
  }

  /** Tells the other instances on the store (if any) what this instance learned. */
  shareLearning(change: SharedRateChange): void {
    this.store?.share(this.key, change);
  }

  /**
   * Registers what follows the learned rate other instances share (an adaptive controller).
   * @internal
   */
  followLearning(learner: (change: FollowedRateChange) => void): void {
    this.learner = learner;
    if (this.announced !== undefined) learner(this.announced);
  }

  /** Facts about the limiter now. */
  snapshot(): RateLimiterSnapshot {
    const now = this.clock.now();
    return {
      key: this.key,
      rate: this.currentRate,
      queued: this.queued,
      nextAtMs: Math.max(this.schedule.nextAt(now), this.reserved?.lastDepartureAt() ?? now),
    };
  }

  /** Rejects every waiter (the application is shutting down) and disarms the timer. */
  close(reason: unknown): void {
    this.closedWith = { reason };
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(cancellationError(reason));
    }
    this.reserved?.close(reason);
  }

  /**
   * Takes the next slot of the store's shared schedule: goes when the slot comes, refused at
   * once when it is past the call's deadline; decides locally when the store cannot answer.
   */
  private reserve(store: RateLimitStore, options: AcquireOptions): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancellationError(signal.reason));
    const now = this.clock.now();
    const deadlineMs = Math.min(now + this.maxWaitMs, options.deadlineMs ?? Infinity);
    const local = { ...options, deadlineMs };
    if (this.queued >= this.maxQueue)
      return this.refuse((this.reserved?.lastDepartureAt() ?? now) - now, 'queue');
    let waitingLocally: Waiter | undefined;
    const reply = store.reserve(
      this.key,
      { rate: this.pacingRate(), burst: this.burst, maxWaitMs: deadlineMs - now },
      (slot) => this.takeLateSlot(store, waitingLocally, slot),
    );
    if (reply === undefined) return this.acquireLocally(local);
    this.reserving++;
    return reply.then((slot) => {
      this.reserving--;
      if (this.closedWith !== undefined) throw cancellationError(this.closedWith.reason);
      if (slot === undefined)
        return this.acquireLocally(local, (waiter) => (waitingLocally = waiter));
      if (!slot.granted) return this.refuse(slot.retryAfterMs, 'wait');
      if (signal?.aborted) throw cancellationError(signal.reason);
      if (slot.waitMs <= 0) return this.departLate(store, local, -slot.waitMs);
      this.observe?.({ kind: 'waiting', waitMs: slot.waitMs, queued: this.queued + 1 });
      options.onWait?.(slot.waitMs);
      return this.holdSlot(store, slot.waitMs, local);
    });
  }

  /**
   * Holds a call until its reserved slot, `waitMs` from now; when this instance woke too late
   * for the slot (it passed unused), reserves again.
   */
  private holdSlot(
    store: RateLimitStore,
    waitMs: number,
    options: AcquireOptions & { readonly deadlineMs: number },
  ): Promise<void> {
    const departAt = this.clock.now() + waitMs;
    return (this.reserved as ReservedSlots)
      .hold(departAt, Math.max(options.deadlineMs, departAt), options.signal)
      .then((onTime) => (onTime ? undefined : this.reserve(store, withoutOnWait(options))));
  }

  /**
   * A slot that had already come when its reply was handled: leaves at once when only a
   * little late, else gives the slot up (leaving now would bunch with the calls on time) and
   * reserves again.
   */
  private departLate(
    store: RateLimitStore,
    options: AcquireOptions,
    lateMs: number,
  ): Promise<void> | undefined {
    return lateMs <= (this.reserved as ReservedSlots).lateToleranceMs
      ? undefined
      : this.reserve(store, withoutOnWait(options));
  }

  /**
   * A reservation the store gave up on (too slow) was answered after all: a call still
   * waiting for its local turn takes the shared slot it reserved (the schedule counted it)
   * rather than leave at its local turn beside the calls on the shared schedule.
   */
  private takeLateSlot(
    store: RateLimitStore,
    waiter: Waiter | undefined,
    slot: RateLimitSlot,
  ): void {
    const reserved = this.reserved as ReservedSlots;
    if (waiter === undefined || !slot.granted || !this.queue.includes(waiter)) return;
    if (slot.waitMs < -reserved.lateToleranceMs) return;
    this.remove(waiter);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    if (slot.waitMs <= 0) return waiter.resolve();
    const { signal, deadlineMs } = waiter;
    this.holdSlot(store, slot.waitMs, { signal, deadlineMs }).then(waiter.resolve, waiter.reject);
  }

  /** What a store sees of this limiter. */
  private handle(): SharedRateLimiterHandle {
    return { key: this.key, follow: (change) => this.follow(change) };
  }

  private follow(change: FollowedRateChange): void {
    if (change.kind === 'paused') {
      this.pauseLocally(this.clock.now() + change.forMs, change.shiftMs);
      return;
    }
    if (change.kind === 'respaced') {
      const from = this.clock.now() + change.fromMs;
      this.reserved?.stretch(from, change.factor, (waitMs) => this.lateRefusal(waitMs));
      return;
    }
    // An announced limit is the adaptive controller's to apply, kept for a controller that
    // comes later; a fixed limit stays fixed, a rate learned elsewhere is capped at once.
    if (change.kind === 'announced') {
      this.announced = change;
      if (this.learner !== undefined) return this.learner(change);
      if (this.followsLearned && this.currentRate > change.rate)
        this.setRate(change.rate, 'another instance read the limit the upstream announced');
      return;
    }
    // Whatever order the shared state arrives in, a rate learned or raised elsewhere (an older
    // raise) never goes past the limit the upstream announced.
    const capped = { ...change, rate: Math.min(change.rate, this.announced?.rate ?? Infinity) };
    if (capped.kind === 'raised' && capped.rate <= this.currentRate) return;
    this.followsLearned = true;
    this.setRate(
      capped.rate,
      `another instance ${capped.kind === 'slowed' ? 'slowed down' : 'raised the rate'}`,
    );
    this.learner?.(capped);
  }

  /** Pauses this instance's own schedule and moves its reserved slots `shiftMs` later. */
  private pauseLocally(untilMs: number, shiftMs: number): void {
    const before = this.schedule.nextAt(this.clock.now());
    this.schedule.pause(untilMs);
    this.reserved?.shift(shiftMs, (waitMs) => this.lateRefusal(waitMs));
    if (this.schedule.nextAt(this.clock.now()) === before) return;
    this.observe?.({ kind: 'paused', untilMs });
    this.dropLateWaiters();
    this.rearm();
  }

  /** The rate calls leave at: the rate, less the delivery allowance (`deliveryJitterMs`). */
  private pacingRate(): number {
    return (this.currentRate * 1000) / (1000 + this.deliveryJitterMs);
  }

  /** The rate this instance paces at on its own schedule. */
  private localRate(): number {
    return this.store?.fallbackRate(this.key, this.pacingRate()) ?? this.pacingRate();
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

  /** The refusal of a waiting call whose turn a slow-down or a pause pushed past its deadline. */
  private lateRefusal(waitMs: number): RateLimitedError {
    const retryAfterMs = Math.max(1, Math.ceil(waitMs));
    this.observe?.({ kind: 'refused', retryAfterMs, reason: 'wait' });
    return this.refusal(
      retryAfterMs,
      `it slowed down and the call's turn is ${retryAfterMs} ms away, past its deadline`,
    );
  }

  /**
   * Paces the own schedule at the store's fallback rate (it moves with the instances seen),
   * after this instance's calls that still hold shared slots: falling back never adds a fresh
   * burst beside them.
   */
  private paceAfterReserved(): void {
    const rate = this.localRate();
    if (Math.abs(rate - this.schedule.rate) > 1e-9 * rate)
      this.schedule.setRate(rate, this.clock.now());
    const lastHeld = this.reserved?.lastHeldAt();
    if (lastHeld !== undefined && this.schedule.nextAt(lastHeld) <= lastHeld)
      this.schedule.take(lastHeld);
  }
}

/** A second reservation of the same call: its wait was announced already. */
function withoutOnWait({ onWait: _onWait, ...options }: AcquireOptions): AcquireOptions {
  return options;
}

function formatRate(rate: number): string {
  return `${Number.isInteger(rate) ? rate : rate.toFixed(1)}/s`;
}
