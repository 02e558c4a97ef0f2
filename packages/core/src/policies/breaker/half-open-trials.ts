import type { CancelTimer, Clock } from '../../clock/clock.js';
import type { AbandonedAttempt } from '../timeout.js';

/**
 * The trial slots of one half-open period: how many trials were let through and how many
 * succeeded, and the slots held for trials whose caller gave up, each until the attempt it
 * left running has settled or passed its deadline (so no more trials run at once than
 * `max`). {@link HalfOpenTrials.reset} starts the next period.
 *
 * @internal
 */
export class HalfOpenTrials {
  private admitted = 0;
  private succeeded = 0;
  /** Slots held for abandoned attempts, each with its deadline timer. */
  private readonly held = new Set<{ cancel?: CancelTimer }>();

  constructor(
    private readonly clock: Clock,
    readonly max: number,
  ) {}

  /** Whether every slot is taken. */
  get full(): boolean {
    return this.admitted >= this.max;
  }

  /** Takes a slot. */
  admit(): void {
    this.admitted++;
  }

  /** Gives a slot back (its call ended without an outcome, or was refused elsewhere). */
  giveBack(): void {
    this.admitted--;
  }

  /** Counts a trial that succeeded: true once `max` have. */
  succeed(): boolean {
    return ++this.succeeded >= this.max;
  }

  /** Keeps a slot until `attempt` settles or passes its deadline, then runs `release`. */
  hold({ settled, deadline }: AbandonedAttempt, release: () => void): void {
    const hold: { cancel?: CancelTimer } = {};
    const end = (): void => {
      if (!this.held.delete(hold)) return;
      hold.cancel?.();
      release();
    };
    this.held.add(hold);
    if (deadline !== undefined) hold.cancel = this.clock.setTimer(end, deadline - this.clock.now());
    void settled.then(end);
  }

  /** Starts a new period: no slot taken, none held. */
  reset(): void {
    this.dropHeld();
    this.admitted = 0;
    this.succeeded = 0;
  }

  /** Forgets the held slots and cancels their timers. */
  dropHeld(): void {
    for (const hold of this.held) hold.cancel?.();
    this.held.clear();
  }
}
