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
 * together never run more trial calls than configured, and lets `trialSucceeded` (when the
 * window has it) decide when the trials succeeded across instances close the breaker.
 * Without one, a breaker decides alone.
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
  /**
   * Optional: a half-open trial succeeded. Returns undefined when the shared state cannot
   * take it (unreachable, or the slot was not taken there): the breaker then counts the
   * success itself and closes on `max` of its own. Otherwise the trials that succeeded on
   * every instance count together, and the window applies the state they lead to (closed
   * once `max` succeeded) to the breaker, with `hydrate`; the promise resolves `true` then,
   * or `false` when the shared state could not be told after all (the breaker counts the
   * success itself). Never rejects. A failed trial needs no call: the breaker opens, and the
   * store shares the transition.
   */
  trialSucceeded?(key: string, max: number): PromiseLike<boolean> | undefined;
}
