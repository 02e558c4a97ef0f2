import type { ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';

/**
 * Latency percentiles of the calls of a run or scenario, in clock ms (virtual time in the
 * harness), nearest-rank; all 0 when no call settled.
 *
 * @publicApi
 */
export interface LatencyPercentiles {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** The outcome kind counted in a breakdown: `result`, or the failure's `errorType`. */
export function outcomeKind(outcome: ToolOutcome): string {
  return outcome.success ? 'result' : outcome.errorType;
}

/** Adds `counts` into `into`, key by key. */
export function addCounts(
  into: Record<string, number>,
  counts: Readonly<Record<string, number>>,
): void {
  for (const [key, count] of Object.entries(counts)) into[key] = (into[key] ?? 0) + count;
}

/** How often a breaker entered `open` (from closed or half-open) among `events`. */
export function countBreakerOpenings(events: readonly ToolEvent[] | undefined): number {
  let openings = 0;
  for (const event of events ?? []) {
    if (event.type === 'breaker.state_changed' && event.to === 'open') openings++;
  }
  return openings;
}

/** Nearest-rank p50, p95, p99 and the maximum of `durationsMs`. */
export function latencyPercentiles(durationsMs: readonly number[]): LatencyPercentiles {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const rank = (quantile: number) =>
    sorted.length === 0 ? 0 : (sorted[Math.ceil(quantile * sorted.length) - 1] as number);
  return { p50: rank(0.5), p95: rank(0.95), p99: rank(0.99), max: rank(1) };
}
