import { isBreakerFailure } from '../error-traits.js';
import { assertOptions } from '../../options/assert-options.js';
import { CIRCUIT_BREAKER_OPTIONS_RULE } from './circuit-breaker-options.rule.js';
import type {
  CircuitBreakerOptions,
  ResolvedCircuitBreakerOptions,
} from './circuit-breaker-options.interface.js';
import { openingRules } from './opening-rule.js';

export type { CircuitBreakerOptions } from './circuit-breaker-options.interface.js';

export type { ResolvedCircuitBreakerOptions } from './circuit-breaker-options.interface.js';

/** @publicApi */
export const DEFAULT_CIRCUIT_BREAKER_OPTIONS: ResolvedCircuitBreakerOptions = Object.freeze({
  errorThresholdPercentage: 50,
  volumeThreshold: 10,
  openingRule: openingRules.failureRatioOrRun,
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
