import { type CancelTimer } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';

/**
 * A {@link VirtualClock} that can say when its next timer is due, so the harness moves time
 * only while calls are still running and leaves whatever else was scheduled (a leaked
 * timer) pending, for the "nothing left running" check.
 */
export class HarnessClock extends VirtualClock {
  private readonly dues = new Set<{ readonly due: number }>();

  override setTimer(callback: () => void, delayMs: number): CancelTimer {
    const entry = { due: this.now() + (Number.isNaN(delayMs) ? 0 : Math.max(0, delayMs)) };
    this.dues.add(entry);
    const cancel = super.setTimer(() => {
      this.dues.delete(entry);
      callback();
    }, delayMs);
    return () => {
      this.dues.delete(entry);
      cancel();
    };
  }

  /** When the next pending timer is due, or `undefined` when none is. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const { due } of this.dues) if (next === undefined || due < next) next = due;
    return next;
  }
}
