import type { AbortSignalLike } from '../../clock/abort-signal-like.js';
import type { CancelTimer, Clock } from '../../clock/clock.js';
import { cancellationError } from '../cancellation.js';

/** A call waiting in a limiter. @internal */
export interface Waiter {
  readonly deadlineMs: number;
  readonly signal?: AbortSignalLike;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

/** A waiting call that holds a reserved slot, leaving at `departAt`. */
interface Held extends Waiter {
  departAt: number;
}

/**
 * Calls holding a slot reserved in a shared schedule, each waiting for its own departure
 * time, in departure order, behind one timer, one call per timer: a late timer delays the
 * calls behind it rather than letting them out together. A pause moves every held slot later
 * (the shared schedule moved them all), dropping the calls it pushes past their deadline.
 *
 * @internal
 */
export class ReservedSlots {
  private readonly held: Held[] = [];
  private cancelTimer?: CancelTimer;

  constructor(private readonly clock: Clock) {}

  /** Calls holding a slot. */
  get size(): number {
    return this.held.length;
  }

  /** When the last held call leaves (or now, when none is held). */
  lastDepartureAt(): number {
    return this.held.at(-1)?.departAt ?? this.clock.now();
  }

  /** Resolves at clock time `departAt`; rejects with the abort reason when `signal` aborts first. */
  hold(departAt: number, deadlineMs: number, signal?: AbortSignalLike): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const held: Held = {
        departAt,
        deadlineMs,
        signal,
        resolve,
        reject,
        onAbort: () => {
          this.remove(held);
          reject(cancellationError(signal?.reason));
        },
      };
      signal?.addEventListener('abort', held.onAbort, { once: true });
      let index = this.held.length;
      while (index > 0 && (this.held[index - 1] as Held).departAt > departAt) index--;
      this.held.splice(index, 0, held);
      if (index === 0) this.arm();
    });
  }

  /**
   * Moves every held slot `shiftMs` later; a call whose slot now falls past its deadline is
   * rejected with `late(waitMs)`.
   */
  shift(shiftMs: number, late: (waitMs: number) => unknown): void {
    if (shiftMs <= 0 || this.held.length === 0) return;
    const now = this.clock.now();
    for (const held of [...this.held]) {
      held.departAt += shiftMs;
      if (held.departAt <= held.deadlineMs) continue;
      this.remove(held);
      held.signal?.removeEventListener('abort', held.onAbort);
      held.reject(late(held.departAt - now));
    }
    this.arm();
  }

  /** Rejects every held call with `reason` (the limiter is closing). */
  close(reason: unknown): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (const held of this.held.splice(0)) {
      held.signal?.removeEventListener('abort', held.onAbort);
      held.reject(cancellationError(reason));
    }
  }

  /**
   * Lets the head go. When its timer fired late (a busy event loop), the slots behind it move
   * by as much: calls late together must not leave closer together than their slots.
   */
  private release = (): void => {
    this.cancelTimer = undefined;
    const now = this.clock.now();
    const head = this.held[0];
    if (head !== undefined && head.departAt <= now) {
      this.held.shift();
      head.signal?.removeEventListener('abort', head.onAbort);
      head.resolve();
      const lateMs = now - head.departAt;
      for (const held of this.held) held.departAt += lateMs;
    }
    this.arm();
  };

  private arm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const head = this.held[0];
    if (head === undefined) return;
    this.cancelTimer = this.clock.setTimer(this.release, head.departAt - this.clock.now());
  }

  private remove(held: Held): void {
    const index = this.held.indexOf(held);
    if (index < 0) return;
    this.held.splice(index, 1);
    if (index === 0) this.arm();
  }
}
