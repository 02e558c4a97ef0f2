/**
 * Circuit breaker settings. Defaults follow opossum where it has the setting (50 %, 10 s
 * window in 10 buckets, 30 s reset), with a minimum volume so a single early failure cannot
 * open a breaker. By default a breaker also opens on a run of consecutive failures too long
 * to be chance (see `openingRule`).
 *
 * @publicApi
 */
export interface CircuitBreakerOptions {
  /** The failure ratio rule opens when the failure percentage in the rolling window exceeds this (default 50). */
  readonly errorThresholdPercentage?: number;
  /** Calls the window must hold before the percentage counts (default 10). */
  readonly volumeThreshold?: number;
  /**
   * When a closed breaker opens (default `openingRules.failureRatioOrRun`: the failure ratio
   * above, or a run of consecutive failures improbable at the window's failure rate, which
   * opens on a dead upstream within a few calls). `openingRules.failureRatio` is opossum's
   * rule alone; `openingRules.failureRun` the run alone. See {@link BreakerOpeningRule}.
   */
  readonly openingRule?: BreakerOpeningRule;
  /** Length of the rolling window (default 10 s). */
  readonly rollingWindowMs?: number;
  /** Buckets the window is divided into (default 10). */
  readonly rollingBuckets?: number;
  /** Time open before trial calls are let through (default 30 s). */
  readonly resetTimeoutMs?: number;
  /** Trial calls let through while half-open; all must succeed to close (default 1). */
  readonly halfOpenMaxCalls?: number;
  /** A success taking at least this long counts as a failure (default: off). */
  readonly slowCallDurationMs?: number;
  /**
   * Errors that count neither as failure nor as success. Default: the types whose trait
   * `breakerFailure` is false (invalid_input, not_found, permission_denied, cancelled, ...).
   */
  readonly isNeutral?: (error: unknown) => boolean;
}

/**
 * What a closed breaker's rolling window holds when it decides whether to open: this
 * instance's counts plus, with a shared window, the other instances' last known counts.
 *
 * @publicApi
 */
export interface OpeningRuleCounts {
  readonly successes: number;
  readonly failures: number;
  /** This instance's consecutive failures up to now (0 after a success or in a fresh window). */
  readonly run: number;
}

/**
 * When a closed breaker opens: asked after every failure it counts, and when other
 * instances' counts arrive through a shared window. The breaker gives it its resolved
 * options (`volumeThreshold`, `errorThresholdPercentage`, ...). Pick one of
 * {@link openingRules} with the `openingRule` option, or write your own.
 *
 * @publicApi
 */
export interface BreakerOpeningRule {
  /** Whether the breaker opens now. Must be cheap: it runs on the call path of failures. */
  shouldOpen(counts: OpeningRuleCounts, options: ResolvedCircuitBreakerOptions): boolean;
}

/** {@link CircuitBreakerOptions} with every default applied. @publicApi */
export type ResolvedCircuitBreakerOptions = Required<CircuitBreakerOptions>;
