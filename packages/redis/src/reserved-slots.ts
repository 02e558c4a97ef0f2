import { type AbortSignalLike, type CancelTimer, type Clock } from '@toolshield/core';
import { cancellationError } from '@toolshield/core/internal';

/** A call waiting for its slot. */
interface Waiter {
  readonly deadlineMs: number;
  readonly signal?: AbortSignalLike;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

/** A waiting call that holds a reserved slot, leaving at `departAt` (told whether on time). */
interface Held extends Omit<Waiter, 'resolve'> {
  departAt: number;
  readonly resolve: (onTime: boolean) => void;
}

/**
 * Calls holding a slot reserved in a shared schedule, each waiting for its own departure
 * time, in departure order, behind one timer. A call leaves only near its slot: when the
 * timer fires more than `lateToleranceMs` after it (a busy event loop), the slot has passed
 * unused, instead of being used late and bunching with the other instances' calls on time.
 * The calls held here then move one slot on, keeping their order, and the last one, left
 * without a slot, is told to reserve a new one. A pause moves every held slot later (the shared
 * schedule moved them all), dropping the calls it pushes past their deadline.
 *
 * @internal
 */
export class ReservedSlots {
  private readonly held: Held[] = [];
  private cancelTimer?: CancelTimer;

  constructor(
    private readonly clock: Clock,
    /** How late after its slot a call may still leave. */
    readonly lateToleranceMs: number,
  ) {}

  /** Calls holding a slot. */
  get size(): number {
    return this.held.length;
  }

  /** When the last held call leaves (or now, when none is held). */
  lastDepartureAt(): number {
    return this.lastHeldAt() ?? this.clock.now();
  }

  /** When the last held call leaves, if any is held. */
  lastHeldAt(): number | undefined {
    return this.held.at(-1)?.departAt;
  }

  /**
   * Resolves at clock time `departAt`: `true` to leave, `false` when this instance woke too
   * late for the slot (it passed unused). Rejects with the abort reason when `signal` aborts first.
   */
  hold(departAt: number, deadlineMs: number, signal?: AbortSignalLike): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
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
    if (shiftMs <= 0) return;
    this.move((departAt) => departAt + shiftMs, late);
  }

  /**
   * Moves every held slot after clock time `from` `factor` times as far from it (the shared
   * schedule's rate fell: the slots keep their order at the new spacing); a call whose slot
   * now falls past its deadline is rejected with `late(waitMs)`.
   */
  stretch(from: number, factor: number, late: (waitMs: number) => unknown): void {
    if (factor <= 1) return;
    this.move((departAt) => (departAt > from ? from + (departAt - from) * factor : departAt), late);
  }

  private move(to: (departAt: number) => number, late: (waitMs: number) => unknown): void {
    if (this.held.length === 0) return;
    const now = this.clock.now();
    for (const held of [...this.held]) {
      held.departAt = to(held.departAt);
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

  /** Lets every call whose slot has come go; a slot this instance woke too late for is lost. */
  private release = (): void => {
    this.cancelTimer = undefined;
    const now = this.clock.now();
    let head = this.held[0];
    while (head !== undefined && head.departAt <= now) {
      if (now - head.departAt > this.lateToleranceMs) this.loseHeadSlot();
      else {
        this.held.shift();
        head.signal?.removeEventListener('abort', head.onAbort);
        head.resolve(true);
      }
      head = this.held[0];
    }
    this.arm();
  };

  /**
   * The head's slot passed unused. Each held call takes the next slot held here, so they
   * keep their order; the ones left without a slot (or whose next slot is past their
   * deadline) are told to reserve again.
   */
  private loseHeadSlot(): void {
    const slots = this.held.slice(1).map((held) => held.departAt);
    const calls = this.held.splice(0);
    for (const call of calls) {
      const slot = slots[0];
      if (slot !== undefined && slot <= call.deadlineMs) {
        call.departAt = slots.shift() as number;
        this.held.push(call);
        continue;
      }
      call.signal?.removeEventListener('abort', call.onAbort);
      call.resolve(false);
    }
  }

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
