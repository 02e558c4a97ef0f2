import type { CancelTimer, Clock } from '../../clock/clock.js';
import type { CircuitState } from '../../events/tool-event.js';

/**
 * A breaker's states and periods: `closed`, `open` (half-opening on the clock after
 * `resetTimeoutMs`), `half_open` and `isolated`. Every transition starts a new period
 * (`epoch`), so an outcome of a call admitted in an earlier period can be told apart and
 * left uncounted. What a period holds (window, trial slots) is the breaker's to reset.
 *
 * @internal
 */
export class BreakerStateMachine {
  private current: CircuitState = 'closed';
  private period = 0;
  private openedAtMs = 0;
  private cancelHalfOpen: CancelTimer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly resetTimeoutMs: number,
    /** Moves the breaker to `half_open` when the open period ends. */
    private readonly halfOpen: () => void,
  ) {}

  get state(): CircuitState {
    return this.current;
  }

  /** The current period: bumped on every transition. */
  get epoch(): number {
    return this.period;
  }

  /** When the breaker last opened, in clock ms. */
  get openedAt(): number {
    return this.openedAtMs;
  }

  /** Enters `to` as a new period; an `open` period half-opens at `openedAt + resetTimeoutMs`. */
  enter(to: CircuitState, openedAt: number): void {
    this.stop();
    this.period++;
    this.current = to;
    if (to !== 'open') return;
    this.openedAtMs = openedAt;
    this.cancelHalfOpen = this.clock.setTimer(
      this.halfOpen,
      openedAt + this.resetTimeoutMs - this.clock.now(),
    );
  }

  /** Time until an open breaker half-opens (0 when due). */
  untilHalfOpen(): number {
    return Math.max(0, this.openedAtMs + this.resetTimeoutMs - this.clock.now());
  }

  /** Cancels the half-open timer. */
  stop(): void {
    this.cancelHalfOpen?.();
    this.cancelHalfOpen = undefined;
  }
}
