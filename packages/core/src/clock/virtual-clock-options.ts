/** @publicApi */
export interface VirtualClockOptions {
  /** The clock's initial time in ms since the epoch (default 0). */
  readonly startMs?: number;
  /** How many timers {@link VirtualClock.runAll} may run before it assumes an endless loop (default 10,000). */
  readonly maxTimersPerRun?: number;
}
