import type { Clock } from '../../clock/clock.js';
import type { BreakerStateChangedEvent } from '../../events/tool-event.js';
import type { AbandonedAttempt } from '../timeout.js';
import type { BucketRotation } from './bucket-rotation.js';
import type { SharedBreakerWindow } from './shared-breaker-window.js';

/** @publicApi */
export interface CircuitBreakerDeps {
  /** Default: the shared `SystemClock`. */
  readonly clock?: Clock;
  /** The breaker's key (default: `tool`). */
  readonly key?: string;
  /** The tool the breaker protects, for errors and events. */
  readonly tool: string;
  /** A rotation shared with other breakers of the same window (the registry passes one). */
  readonly rotation?: BucketRotation;
  /** Told about every state change. */
  readonly onStateChange?: (event: BreakerStateChangedEvent) => void;
  /** Counts and trial slots shared with other instances (default: this breaker decides alone). */
  readonly shared?: SharedBreakerWindow;
}

/** Per-call options of {@link ToolCircuitBreaker.execute}. @publicApi */
export interface BreakerCallOptions {
  /**
   * Read when the call rejects: the attempt its caller's abort left running, if that is how it
   * ended (set it from `withTimeout`'s `onAbandoned`). Such a call counts neither as success
   * nor as failure, whatever its error, and a half-open trial slot stays taken until that
   * attempt has settled or passed its deadline.
   */
  readonly abandoned?: AbandonedAttempt;
  /**
   * Count calls, not attempts: when given, a failure while closed is not counted at once but
   * handed to this function as `count`, for the caller to run when the whole call has failed
   * (after its retries) and to drop when a retry succeeded. `composePolicies` and the retry
   * layer of `@toolshield/nest` do this, so a flaky upstream whose retries succeed never
   * opens the breaker. It is called as a method of these options.
   */
  readonly deferFailure?: (count: () => void) => void;
}

/** The rolling window's counts. @publicApi */
export interface CircuitBreakerStats {
  readonly successes: number;
  readonly failures: number;
}
