import type { ToolErrorType, ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';

/**
 * One attempt of a call as the harness saw it. Times are clock ms (virtual in the harness).
 *
 * @publicApi
 */
export interface RecordedAttempt {
  /** 1 for the first attempt, 2 for the first retry, ... */
  readonly attempt: number;
  /** When the attempt began. */
  readonly startedAt: number;
  /** Whether the tool body ran in this attempt (an open breaker must not let it). */
  readonly toolInvoked: boolean;
  /** When the attempt failed; absent when it succeeded (or never ended). */
  readonly failedAt?: number;
  /** How it failed, when it did. */
  readonly errorType?: ToolErrorType;
  /** The wait the failure asked for (Retry-After, breaker reset), in ms from `failedAt`. */
  readonly retryAfterMs?: number;
}

/**
 * One call made through the executor during a run.
 *
 * @publicApi
 */
export interface RecordedCall {
  readonly callId: string;
  readonly tool: string;
  /** When the call was made. */
  readonly startedAt: number;
  /** Retries its policy allowed; when absent, a failure's own `retryMax` is used. */
  readonly retryMax?: number;
  /** Its attempts, in order. */
  readonly attempts: readonly RecordedAttempt[];
  /** Every value the executor resolved with for this call: exactly one is expected. */
  readonly outcomes: readonly ToolOutcome[];
  /** Every value the executor threw or rejected with for this call: none is expected. */
  readonly rejections: readonly unknown[];
}

/**
 * Everything a harness run recorded, for the invariant checkers to judge. A runner fills it
 * by wrapping the tools (attempts, `toolInvoked`), awaiting the executor (outcomes,
 * rejections), subscribing to its event stream (events) and, after closing the app,
 * counting what is still scheduled (`openHandles`: pending clock timers, active handles).
 *
 * @publicApi
 */
export interface RecordedRun {
  readonly calls: readonly RecordedCall[];
  /** The executor's events, in order (optional: event checks are skipped without them). */
  readonly events?: readonly ToolEvent[];
  /** Timers, sockets or other handles still open after the app closed. */
  readonly openHandles: number;
}
