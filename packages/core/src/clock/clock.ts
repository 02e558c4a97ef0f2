/**
 * Cancels a scheduled callback. Calling it after the callback ran, or twice, does nothing.
 *
 * @publicApi
 */
export type CancelTimer = () => void;

/**
 * The source of time for every policy, so tests and the chaos harness can run in virtual
 * time. Implementations: `SystemClock` (real timers) and `VirtualClock` (advanced by hand).
 *
 * @publicApi
 */
export interface Clock {
  /** Current time in ms since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs` (clamped to >= 0). */
  setTimer(callback: () => void, delayMs: number): CancelTimer;
}
