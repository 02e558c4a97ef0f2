import { CallerPauses } from './caller-pauses.js';

/** The longest pause an echo of a slow-down adds: longer waits are the upstream's to say. */
const MAX_ECHO_PAUSE_MS = 1_000;

/**
 * What happened since an adaptive controller's last slow-down: when it was and the rate it
 * set, whether a call succeeded since, the pauses since (nothing was sent meanwhile), and the
 * refusals that echoed it (refused again with nothing admitted between), each pausing the
 * callers twice as long as the one before.
 *
 * @internal
 */
export class SinceSlowDown {
  /** Clock time of the last slow-down (minus infinity before the first). */
  at = Number.NEGATIVE_INFINITY;
  /** A call succeeded since: a refusal now is news, not an echo. */
  succeeded = false;
  /** An echo since lowered the ceiling to the last second's successes. */
  bounded = false;
  /**
   * The slow-down ended a ramp past a forgotten ceiling (doubling every half second): calls
   * sent in the moments after it still meet what the ramp filled.
   */
  endedRamp = false;
  /** The pauses since (only the last `keepMs` are kept). */
  readonly pauses: CallerPauses;
  private echoes = 0;
  private rate = 1;

  constructor(keepMs: number) {
    this.pauses = new CallerPauses(keepMs);
  }

  /** A slow-down at clock time `at`, to `rate` calls a second (`endedRamp`: see the field). */
  start(at: number, rate: number, endedRamp = false): void {
    this.at = at;
    this.endedRamp = endedRamp;
    this.rate = rate;
    this.succeeded = false;
    this.bounded = false;
    this.echoes = 0;
    this.pauses.clear();
  }

  /**
   * One more echo: its pause, twice the last one's, from two calls' time at the rate the
   * slow-down set (not at a rate an echo lowered since: the wait is the upstream's, not ours).
   */
  nextEchoPauseMs(): number {
    this.echoes++;
    return Math.min(MAX_ECHO_PAUSE_MS, (2 ** this.echoes * 1000) / this.rate);
  }
}
