import type { ToolOutcome } from '@toolshield/core';
import { checkInvariants, type InvariantViolation } from './invariants.js';
import {
  addCounts,
  countBreakerOpenings,
  latencyPercentiles,
  outcomeKind,
  type LatencyPercentiles,
} from './outcome-breakdown.js';
import type { RecordedRun } from './recorded-run.js';

/** @publicApi */
export type ChaosStatus = 'PASS' | 'FAIL';

/**
 * An outcome the run observed, kept as an example for the report.
 *
 * @publicApi
 */
export interface ObservedSample {
  readonly callId: string;
  readonly tool: string;
  readonly outcome: ToolOutcome;
}

/**
 * One scenario run with one seed.
 *
 * @publicApi
 */
export interface SeedRunReport {
  readonly seed: number;
  readonly status: ChaosStatus;
  /** Wall time of the run, in ms. */
  readonly durationMs: number;
  readonly calls: number;
  readonly violations: readonly InvariantViolation[];
  /** How many calls were retried how often: `{ "0": 80, "1": 15, "2": 5 }`. */
  readonly retryCounts: Readonly<Record<string, number>>;
  /** Calls by how they ended: `result`, or the failure's `errorType` (`{ result: 93, rate_limited: 7 }`). */
  readonly outcomes: Readonly<Record<string, number>>;
  /** How often a circuit breaker opened during the run. */
  readonly breakerOpenings: number;
  /** Call latency percentiles (`metadata.durationMs`, virtual ms in the harness). */
  readonly latencyMs: LatencyPercentiles;
  /** A few outcomes: the first of each distinct kind (result, or failure per errorType). */
  readonly samples: readonly ObservedSample[];
}

/**
 * One scenario over all its seeds; it fails when any seed fails.
 *
 * @publicApi
 */
export interface ScenarioReport {
  readonly name: string;
  readonly description?: string;
  readonly status: ChaosStatus;
  /** Calls over all seeds. */
  readonly calls: number;
  /** Retry counts over all seeds (see {@link SeedRunReport.retryCounts}). */
  readonly retryCounts: Readonly<Record<string, number>>;
  /** Outcomes over all seeds (see {@link SeedRunReport.outcomes}). */
  readonly outcomes: Readonly<Record<string, number>>;
  /** Breaker openings over all seeds. */
  readonly breakerOpenings: number;
  /** Latency percentiles over every call of every seed. */
  readonly latencyMs: LatencyPercentiles;
  readonly seeds: readonly SeedRunReport[];
}

/**
 * A whole harness run.
 *
 * @publicApi
 */
export interface ChaosRunReport {
  /** ISO 8601 time the run started. */
  readonly startedAt: string;
  /** Wall time of the whole run, in ms. */
  readonly durationMs: number;
  readonly status: ChaosStatus;
  readonly totals: {
    readonly scenarios: number;
    readonly passed: number;
    readonly failed: number;
    readonly seedRuns: number;
    readonly calls: number;
    /** Outcomes over every scenario. */
    readonly outcomes: Readonly<Record<string, number>>;
    /** Breaker openings over every scenario. */
    readonly breakerOpenings: number;
  };
  readonly scenarios: readonly ScenarioReport[];
}

/** @publicApi */
export interface SummariseSeedRunOptions {
  readonly seed: number;
  readonly run: RecordedRun;
  readonly durationMs: number;
  /** How many samples to keep (default 5). */
  readonly maxSamples?: number;
}

/**
 * Judges one recorded run: checks every invariant and collects retry counts and samples.
 *
 * @publicApi
 */
export function summariseSeedRun(options: SummariseSeedRunOptions): SeedRunReport {
  const { seed, run, durationMs, maxSamples = 5 } = options;
  const violations = checkInvariants(run);
  const retryCounts: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const samples: ObservedSample[] = [];
  const sampledKinds = new Set<string>();
  for (const call of run.calls) {
    const outcome = call.outcomes[0];
    if (outcome === undefined) continue;
    const retries = outcome.success ? outcome.metadata.attempts - 1 : outcome.retryCount;
    retryCounts[retries] = (retryCounts[retries] ?? 0) + 1;
    const kind = outcomeKind(outcome);
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    if (samples.length < maxSamples && !sampledKinds.has(kind)) {
      sampledKinds.add(kind);
      samples.push({ callId: call.callId, tool: call.tool, outcome });
    }
  }
  return {
    seed,
    status: violations.length === 0 ? 'PASS' : 'FAIL',
    durationMs,
    calls: run.calls.length,
    violations,
    retryCounts,
    outcomes,
    breakerOpenings: countBreakerOpenings(run.events),
    latencyMs: latencyPercentiles(callDurationsMs(run)),
    samples,
  };
}

/** Each settled call's `metadata.durationMs` (clock ms from call to outcome). @internal */
export function callDurationsMs(run: RecordedRun): number[] {
  return run.calls.flatMap((call) => {
    const outcome = call.outcomes[0];
    return outcome === undefined ? [] : [outcome.metadata.durationMs];
  });
}

/**
 * Groups one scenario's seed runs and adds up their breakdowns. Pass `callDurationsMs` (every
 * call's latency over all seeds, see {@link callDurationsMs}) for exact scenario percentiles;
 * without it they are the highest of the seeds' percentiles (an upper bound).
 *
 * @publicApi
 */
export function buildScenarioReport(
  name: string,
  seeds: readonly SeedRunReport[],
  description?: string,
  callDurationsMs?: readonly number[],
): ScenarioReport {
  const retryCounts: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  for (const seed of seeds) {
    addCounts(retryCounts, seed.retryCounts);
    addCounts(outcomes, seed.outcomes);
  }
  return {
    name,
    ...(description === undefined ? {} : { description }),
    status: seeds.every((seed) => seed.status === 'PASS') ? 'PASS' : 'FAIL',
    calls: seeds.reduce((sum, seed) => sum + seed.calls, 0),
    retryCounts,
    outcomes,
    breakerOpenings: seeds.reduce((sum, seed) => sum + seed.breakerOpenings, 0),
    latencyMs:
      callDurationsMs === undefined
        ? highestPercentiles(seeds)
        : latencyPercentiles(callDurationsMs),
    seeds,
  };
}

function highestPercentiles(seeds: readonly SeedRunReport[]): LatencyPercentiles {
  const highest = (pick: (latency: LatencyPercentiles) => number) =>
    Math.max(0, ...seeds.map((seed) => pick(seed.latencyMs)));
  return {
    p50: highest((latency) => latency.p50),
    p95: highest((latency) => latency.p95),
    p99: highest((latency) => latency.p99),
    max: highest((latency) => latency.max),
  };
}

/** Assembles the run report and its totals. @publicApi */
export function buildChaosRunReport(
  startedAt: Date,
  durationMs: number,
  scenarios: readonly ScenarioReport[],
): ChaosRunReport {
  const failed = scenarios.filter((scenario) => scenario.status === 'FAIL').length;
  const outcomes: Record<string, number> = {};
  for (const scenario of scenarios) addCounts(outcomes, scenario.outcomes);
  return {
    startedAt: startedAt.toISOString(),
    durationMs,
    status: failed === 0 ? 'PASS' : 'FAIL',
    totals: {
      scenarios: scenarios.length,
      passed: scenarios.length - failed,
      failed,
      seedRuns: scenarios.reduce((sum, scenario) => sum + scenario.seeds.length, 0),
      calls: scenarios.reduce((sum, scenario) => sum + scenario.calls, 0),
      outcomes,
      breakerOpenings: scenarios.reduce((sum, scenario) => sum + scenario.breakerOpenings, 0),
    },
    scenarios,
  };
}
