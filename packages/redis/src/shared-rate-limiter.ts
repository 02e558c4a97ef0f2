import { type Clock, type RateLimitOptions, type RateDecision } from '@toolshield/core';
import { type RateLimitEvent } from '@toolshield/core/events';
import {
  cancellationError,
  DEFAULT_ADAPTIVE_RATE,
  RateLimiter,
  type AcquireOptions,
} from '@toolshield/core/internal';
import { ReservedSlots } from './reserved-slots.js';
import type { FollowedRateChange, RateLimitSlot, SharedSchedule } from './shared-schedule.js';

/**
 * How late after its reserved slot a call may still leave, at least: a timer's ordinary
 * lateness, not a stall. Later than this (or than a quarter of the delivery allowance, when
 * larger), the slot is given up.
 */
const MIN_LATE_TOLERANCE_MS = 5;

/** Why a limiter followed another instance. */
const FOLLOWED = {
  slowed: 'another instance slowed down',
  raised: 'another instance raised the rate',
  announced: 'another instance read the limit the upstream announced',
} as const;

/**
 * A {@link RateLimiter} whose slots come from a schedule shared by every instance (one
 * reservation per call, in arrival order), so N instances together stay within the rate. It
 * shares its pauses and its controller's decisions (a slow-down counts once per cooldown
 * across the instances, a raise keeps the higher rate, an announced limit caps them all), and
 * follows the others': a pause moves the slots it holds past the pause, a fall of the rate
 * moves them apart to the new spacing. A limiter made after others learned waits for what
 * they learned before its first reservation. While the schedule cannot be reached, it paces
 * on its own schedule at the store's fallback rate, after the shared slots it still holds.
 */
export class SharedRateLimiter extends RateLimiter {
  /** Calls holding a reserved slot. */
  private readonly reserved: ReservedSlots;
  /** Calls whose reservation is on its way. */
  private reserving = 0;
  /** Until the store told this limiter what the instances learned so far. */
  private joining?: Promise<void>;
  private closedWith?: { readonly reason: unknown };
  private readonly slowDownCooldownMs: number;
  /** Without a controller: the last limit another instance read in the upstream's announcement. */
  private announced?: number;
  /** Without a controller: the rate is one another instance learned (not the configured one). */
  private followsLearned = false;

  constructor(
    key: string,
    options: RateLimitOptions,
    clock: Clock,
    observe: ((event: RateLimitEvent) => void) | undefined,
    private readonly store: SharedSchedule,
  ) {
    super(key, options, clock, observe);
    const lateToleranceMs = Math.max(MIN_LATE_TOLERANCE_MS, this.deliveryJitterMs / 4);
    this.reserved = new ReservedSlots(clock, lateToleranceMs);
    const { adaptive } = options;
    const tuning = typeof adaptive === 'object' && !('admitted' in adaptive) ? adaptive : {};
    this.slowDownCooldownMs = tuning.decreaseCooldownMs ?? DEFAULT_ADAPTIVE_RATE.decreaseCooldownMs;
    const joined = store.attach?.({ key, follow: (change) => this.follow(change) });
    const done = () => (this.joining = undefined);
    if (joined !== undefined) this.joining = joined.then(done, done);
  }

  override get queued(): number {
    return super.queued + this.reserving + this.reserved.size;
  }

  /** Always `false`: a slot is reserved on the shared schedule through {@link acquire}. */
  override tryAcquire(): boolean {
    return false;
  }

  override acquire(options: AcquireOptions = {}): Promise<void> {
    const { joining } = this;
    if (joining === undefined) return this.reserve(options);
    // Made before the store told what the instances learned: reserves once this limiter
    // follows it, in arrival order, rather than at the configured rate.
    this.reserving++;
    return joining.then(() => {
      this.reserving--;
      if (this.closedWith !== undefined) throw cancellationError(this.closedWith.reason);
      return this.reserve(options);
    });
  }

  /** Every instance holds back (slots already reserved move past the pause). */
  override pauseUntil(untilMs: number): void {
    const now = this.clock.now();
    this.pauseHere(untilMs, untilMs - Math.max(now, this.pausedUntilMs));
    this.store.share(this.key, { kind: 'paused', forMs: untilMs - now });
  }

  override snapshot() {
    const snapshot = super.snapshot();
    return { ...snapshot, nextAtMs: Math.max(snapshot.nextAtMs, this.reserved.lastDepartureAt()) };
  }

  override close(reason: unknown): void {
    this.closedWith = { reason };
    super.close(reason);
    this.reserved.close(reason);
  }

  /** Applies the controller's decision here, and shares it with the other instances. */
  protected override apply(decision: RateDecision | undefined): void {
    super.apply(decision);
    if (decision === undefined || decision.kind === 'held') return;
    const { key, store } = this;
    const { rate } = decision;
    if (decision.kind !== 'slowed') return store.share(key, { kind: decision.kind, rate });
    const top = decision.ceiling ?? rate;
    store.share(key, { kind: 'slowed', rate, top, cooldownMs: this.slowDownCooldownMs });
  }

  /** The slots already reserved closer than the new spacing move apart (every instance's, once). */
  protected override rateFell(): void {
    this.store.share(this.key, { kind: 'spaced', intervalMs: 1000 / this.pacingRate() });
  }

  /**
   * Takes the next slot of the shared schedule: goes when the slot comes, refused at once when
   * it is past the call's deadline; decides locally when the store cannot answer.
   */
  private reserve(options: AcquireOptions): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancellationError(signal.reason));
    const now = this.clock.now();
    const deadlineMs = Math.min(now + this.maxWaitMs, options.deadlineMs ?? Infinity);
    const local = { ...options, deadlineMs };
    if (this.queued >= this.maxQueue)
      return this.refuse(this.reserved.lastDepartureAt() - now, 'queue');
    let late: ((slot: RateLimitSlot) => void) | undefined;
    const reply = this.store.reserve(
      this.key,
      { rate: this.pacingRate(), burst: this.burst, maxWaitMs: deadlineMs - now },
      (slot) => late?.(slot),
    );
    if (reply === undefined) return this.acquireLocally(local);
    this.reserving++;
    return reply.then((slot) => {
      this.reserving--;
      if (this.closedWith !== undefined) throw cancellationError(this.closedWith.reason);
      if (slot === undefined) return this.waitLocally(local, (take) => (late = take));
      if (!slot.granted) return this.refuse(slot.retryAfterMs, 'wait');
      if (signal?.aborted) throw cancellationError(signal.reason);
      if (slot.waitMs <= 0) return this.departLate(local, -slot.waitMs);
      this.observe?.({ kind: 'waiting', waitMs: slot.waitMs, queued: this.queued + 1 });
      options.onWait?.(slot.waitMs);
      return this.holdSlot(slot.waitMs, local);
    });
  }

  /** Paces the own schedule at the store's fallback rate, after the shared slots held here. */
  private acquireLocally(options: AcquireOptions): Promise<void> {
    this.paceOwnSchedule(
      this.store.fallbackRate(this.key, this.pacingRate()),
      this.reserved.lastHeldAt(),
    );
    return super.acquire(options);
  }

  /**
   * Waits for a local turn (the store gave up on the reservation: too slow). When the
   * reservation is answered after all (`onLate`), the call takes the shared slot it reserved
   * (the schedule counted it) rather than leave at its local turn beside the calls on it.
   */
  private waitLocally(
    options: AcquireOptions & { readonly deadlineMs: number },
    onLate: (take: (slot: RateLimitSlot) => void) => void,
  ): Promise<void> {
    const giveUp = new AbortController();
    const forward = () => giveUp.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', forward, { once: true });
    let waiting = true;
    let instead: Promise<void> | undefined;
    onLate((slot) => {
      if (!waiting || !slot.granted || slot.waitMs < -this.reserved.lateToleranceMs) return;
      instead = slot.waitMs <= 0 ? Promise.resolve() : this.holdSlot(slot.waitMs, options);
      giveUp.abort();
    });
    const settled = () => {
      waiting = false;
      options.signal?.removeEventListener('abort', forward);
    };
    return this.acquireLocally({ ...options, signal: giveUp.signal }).then(settled, (error) => {
      settled();
      if (instead === undefined) throw error;
      return instead;
    });
  }

  /** Holds a call until its slot, `waitMs` from now; reserves again when it woke too late. */
  private holdSlot(waitMs: number, options: AcquireOptions & { deadlineMs: number }) {
    const departAt = this.clock.now() + waitMs;
    return this.reserved
      .hold(departAt, Math.max(options.deadlineMs, departAt), options.signal)
      .then((onTime) => (onTime ? undefined : this.reserve(withoutOnWait(options))));
  }

  /**
   * A slot that had already come when its reply was handled: leaves at once when only a
   * little late, else gives the slot up (leaving now would bunch with the calls on time).
   */
  private departLate(options: AcquireOptions, lateMs: number): Promise<void> | undefined {
    return lateMs <= this.reserved.lateToleranceMs
      ? undefined
      : this.reserve(withoutOnWait(options));
  }

  private follow(change: FollowedRateChange): void {
    const now = this.clock.now();
    if (change.kind === 'paused') return this.pauseHere(now + change.forMs, change.shiftMs);
    if (change.kind === 'respaced') {
      const late = (waitMs: number) => this.lateRefusal(waitMs);
      return this.reserved.stretch(now + change.fromMs, change.factor, late);
    }
    const reason = FOLLOWED[change.kind];
    if (this.controller !== undefined) {
      const ceiling = change.kind === 'slowed' ? change.top : undefined;
      const sinceMs = change.kind === 'slowed' ? change.sinceMs : 0;
      const adopted = this.controller.adopt({ ...change, reason, ceiling }, now - sinceMs);
      return this.setRate(adopted, reason);
    }
    // A fixed limit stays fixed until a rate is learned elsewhere; then it follows, and,
    // whatever order the shared state arrives in, never goes past the announced limit.
    if (change.kind === 'announced') {
      this.announced = change.rate;
      if (this.followsLearned && this.rate > change.rate) this.setRate(change.rate, reason);
      return;
    }
    const rate = Math.min(change.rate, this.announced ?? Infinity);
    if (change.kind === 'raised' && rate <= this.rate) return;
    this.followsLearned = true;
    this.setRate(rate, reason);
  }

  /** Pauses this instance's own schedule and moves its reserved slots `shiftMs` later. */
  private pauseHere(untilMs: number, shiftMs: number): void {
    super.pauseUntil(untilMs);
    this.reserved.shift(shiftMs, (waitMs) => this.lateRefusal(waitMs));
  }
}

/** A second reservation of the same call: its wait was announced already. */
function withoutOnWait({ onWait: _onWait, ...options }: AcquireOptions): AcquireOptions {
  return options;
}
