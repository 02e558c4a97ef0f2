import type { ToolOutcome } from '@toolshield/core';
import { checkInvariants, type InvariantViolation } from './invariants.js';
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
  const samples: ObservedSample[] = [];
  const sampledKinds = new Set<string>();
  for (const call of run.calls) {
    const outcome = call.outcomes[0];
    if (outcome === undefined) continue;
    const retries = outcome.success ? outcome.metadata.attempts - 1 : outcome.retryCount;
    retryCounts[retries] = (retryCounts[retries] ?? 0) + 1;
    const kind = outcome.success ? 'result' : outcome.errorType;
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
    samples,
  };
}

/** Groups one scenario's seed runs. @publicApi */
export function buildScenarioReport(
  name: string,
  seeds: readonly SeedRunReport[],
  description?: string,
): ScenarioReport {
  return {
    name,
    ...(description === undefined ? {} : { description }),
    status: seeds.every((seed) => seed.status === 'PASS') ? 'PASS' : 'FAIL',
    calls: seeds.reduce((sum, seed) => sum + seed.calls, 0),
    seeds,
  };
}

/** Assembles the run report and its totals. @publicApi */
export function buildChaosRunReport(
  startedAt: Date,
  durationMs: number,
  scenarios: readonly ScenarioReport[],
): ChaosRunReport {
  const failed = scenarios.filter((scenario) => scenario.status === 'FAIL').length;
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
    },
    scenarios,
  };
}
