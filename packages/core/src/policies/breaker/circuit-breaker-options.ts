import { isBreakerFailure } from '../error-traits.js';
import { assertOptions } from '../../options/assert-options.js';
import { CIRCUIT_BREAKER_OPTIONS_RULE } from '../../options/rules/circuit-breaker-options.rule.js';

/**
 * Circuit breaker settings. Defaults follow opossum where it has the setting (50 %, 10 s
 * window in 10 buckets, 30 s reset), with a minimum volume so a single early failure cannot
 * open a breaker.
 *
 * @publicApi
 */
export interface CircuitBreakerOptions {
  /** Opens when the failure percentage in the rolling window exceeds this (default 50). */
  readonly errorThresholdPercentage?: number;
  /** Calls the window must hold before the percentage counts (default 10). */
  readonly volumeThreshold?: number;
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

/** {@link CircuitBreakerOptions} with every default applied. @publicApi */
export type ResolvedCircuitBreakerOptions = Required<CircuitBreakerOptions>;

/** @publicApi */
export const DEFAULT_CIRCUIT_BREAKER_OPTIONS: ResolvedCircuitBreakerOptions = Object.freeze({
  errorThresholdPercentage: 50,
  volumeThreshold: 10,
  rollingWindowMs: 10_000,
  rollingBuckets: 10,
  resetTimeoutMs: 30_000,
  halfOpenMaxCalls: 1,
  slowCallDurationMs: Number.POSITIVE_INFINITY,
  isNeutral: (error: unknown) => !isBreakerFailure(error),
});

/** Applies {@link DEFAULT_CIRCUIT_BREAKER_OPTIONS}; later sources win. @publicApi */
export function resolveCircuitBreakerOptions(
  ...sources: readonly (CircuitBreakerOptions | undefined)[]
): ResolvedCircuitBreakerOptions {
  for (const source of sources)
    assertOptions(CIRCUIT_BREAKER_OPTIONS_RULE, source ?? {}, 'CircuitBreakerOptions');
  const merged: Record<string, unknown> = { ...DEFAULT_CIRCUIT_BREAKER_OPTIONS };
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {}))
      if (value !== undefined) merged[name] = value;
  }
  const options = merged as ResolvedCircuitBreakerOptions;
  return {
    ...options,
    volumeThreshold: Math.max(1, Math.floor(options.volumeThreshold)),
    rollingBuckets: Math.max(1, Math.floor(options.rollingBuckets)),
    rollingWindowMs: Math.max(1, options.rollingWindowMs),
    resetTimeoutMs: Math.max(0, options.resetTimeoutMs),
    halfOpenMaxCalls: Math.max(1, Math.floor(options.halfOpenMaxCalls)),
  };
}
