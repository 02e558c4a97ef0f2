import { sleep } from '@toolshield/core';
import type { RandomSource } from '../random/random-stream.js';
import type { ChaosFault } from './chaos-fault.js';

/**
 * How long an injected delay lasts, in ms of clock time.
 *
 * - `fixed`: always `ms`.
 * - `uniform`: anywhere in `[minMs, maxMs]`.
 * - `log-normal`: half the delays below `medianMs`, a long tail set by `sigma` (1 is heavy).
 * - `pareto`: at least `minMs`, tail index `alpha` (smaller is heavier; 1.16 is the 80/20 rule).
 *
 * Heavy-tailed distributions are capped at `capMs` so one draw cannot stall a run for days.
 *
 * @publicApi
 */
export type LatencyDistribution =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  | {
      readonly kind: 'log-normal';
      readonly medianMs: number;
      readonly sigma: number;
      readonly capMs: number;
    }
  | {
      readonly kind: 'pareto';
      readonly minMs: number;
      readonly alpha: number;
      readonly capMs: number;
    };

/**
 * Draws one delay from `distribution`, rounded to whole ms. Throws a `RangeError` for
 * parameters that make no sense (negative times, `minMs > maxMs`, non-positive shape).
 *
 * @publicApi
 */
export function sampleLatency(distribution: LatencyDistribution, random: RandomSource): number {
  switch (distribution.kind) {
    case 'fixed':
      requireNonNegative('ms', distribution.ms);
      return Math.round(distribution.ms);
    case 'uniform':
      requireNonNegative('minMs', distribution.minMs);
      if (!(distribution.maxMs >= distribution.minMs)) {
        throw new RangeError(
          `uniform latency needs minMs <= maxMs, got ${distribution.minMs} > ${distribution.maxMs}`,
        );
      }
      return Math.round(distribution.minMs + random() * (distribution.maxMs - distribution.minMs));
    case 'log-normal': {
      requirePositive('medianMs', distribution.medianMs);
      requireNonNegative('sigma', distribution.sigma);
      requireNonNegative('capMs', distribution.capMs);
      const delay = distribution.medianMs * Math.exp(distribution.sigma * standardNormal(random));
      return Math.round(Math.min(delay, distribution.capMs));
    }
    case 'pareto': {
      requirePositive('minMs', distribution.minMs);
      requirePositive('alpha', distribution.alpha);
      requireNonNegative('capMs', distribution.capMs);
      const delay = distribution.minMs / Math.pow(1 - random(), 1 / distribution.alpha);
      return Math.round(Math.min(delay, distribution.capMs));
    }
  }
}

/**
 * Delays the call by a delay drawn from `distribution`, then lets it run. The wait goes
 * through the clock (free in virtual time) and ends early, rejecting with the signal's
 * reason, when the call's signal aborts (an attempt timeout, a cancelled call); the tool is
 * then never called.
 *
 * @example
 * latency({ kind: 'pareto', minMs: 50, alpha: 1.5, capMs: 30_000 })
 *
 * @publicApi
 */
export function latency(distribution: LatencyDistribution): ChaosFault {
  sampleLatency(distribution, () => 0.5); // rejects bad parameters now, not at the first call
  return {
    name: 'latency',
    async inject(invocation, next) {
      const delayMs = sampleLatency(distribution, invocation.random);
      await sleep(invocation.clock, delayMs, invocation.context.signal);
      return next();
    },
  };
}

/** Box–Muller: one standard normal draw from two uniform ones. */
function standardNormal(random: RandomSource): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function requireNonNegative(name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`latency ${name} must be a finite number >= 0, got ${value}`);
  }
}

function requirePositive(name: string, value: number): void {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`latency ${name} must be a finite number > 0, got ${value}`);
  }
}
