/** Counts in a breaker's rolling window. @publicApi */
export interface SharedWindowCounts {
  readonly successes: number;
  readonly failures: number;
}

/**
 * A seam for breakers shared by several instances (e.g. `@toolshield/redis`). When a breaker
 * is given one, it reports every outcome it counts while closed to `count` (which must return
 * at once: the store sends them later, off the call path), adds `remote(key)` (the other
 * instances' counts it last heard of) to its own in the opening decision, holds its next calls
 * while `count` confirms a failure, and, while
 * half-open, takes each trial slot with `acquireTrial` as well as locally, so the instances
 * together never run more trial calls than configured. Without one, a breaker decides alone.
 *
 * @publicApi
 */
export interface SharedBreakerWindow {
  /**
   * An outcome this instance counted while closed. Must not block or throw. For a failure it
   * may return a promise that settles (never rejects) once the failure is in the shared window
   * and the others' counts were read back: the breaker holds the calls it is asked to make
   * until then, so no call goes out on a view of the window older than its own last failure.
   */
  count(key: string, failed: boolean): PromiseLike<void> | void;
  /** Other instances' counts in the current window, as last heard of (never awaited). */
  remote(key: string): SharedWindowCounts | undefined;
  /**
   * Takes one of the `max` shared trial slots of a half-open breaker: `true` when this call
   * may run. Resolves `true` when the shared state cannot be reached (local slots still hold).
   */
  acquireTrial(key: string, max: number): Promise<boolean>;
  /** Gives back a trial slot whose call ended without an outcome (a neutral error). */
  releaseTrial(key: string): void;
}
