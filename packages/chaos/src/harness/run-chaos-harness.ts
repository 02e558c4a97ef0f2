import {
  buildChaosRunReport,
  buildScenarioReport,
  callDurationsMs,
  summariseSeedRun,
  type ChaosRunReport,
  type SeedRunReport,
} from './chaos-report.js';
import type { ChaosHarnessConfig } from './chaos-harness-config.js';
import { runScenarioSeed } from './run-seed.js';

/** @publicApi */
export interface RunChaosHarnessOptions {
  /** Called after each scenario, with its report (the CLI prints its PASS/FAIL line here). */
  readonly onScenario?: (report: ChaosRunReport['scenarios'][number]) => void;
}

/**
 * Runs every scenario with every seed against the configured application, in virtual time,
 * one run after another, checks the invariants of each run and returns the report (PASS/FAIL per
 * scenario, with observed payload samples, retry counts, outcomes by type, breaker openings
 * and latency percentiles in virtual time). Rejects with `ChaosAppStartError` when the
 * application cannot start. It never writes files; see
 * {@link writeChaosReports}.
 *
 * @example
 * const report = await runChaosHarness({ module: AppModule, scenarios, seeds: 5 });
 * expect(report.status).toBe('PASS');
 *
 * @publicApi
 */
export async function runChaosHarness(
  config: ChaosHarnessConfig,
  options: RunChaosHarnessOptions = {},
): Promise<ChaosRunReport> {
  const startedAt = new Date();
  const started = performance.now();
  const seeds = seedsOf(config.seeds);
  const scenarios = [];
  for (const scenario of config.scenarios) {
    const runs: SeedRunReport[] = [];
    const durations: number[] = [];
    for (const seed of seeds) {
      const seedStarted = performance.now();
      const run = await runScenarioSeed(config, scenario, seed);
      durations.push(...callDurationsMs(run));
      runs.push(
        summariseSeedRun({
          seed,
          run,
          durationMs: Math.round(performance.now() - seedStarted),
          ...(config.maxSamples === undefined ? {} : { maxSamples: config.maxSamples }),
        }),
      );
    }
    const report = buildScenarioReport(scenario.name, runs, scenario.description, durations);
    options.onScenario?.(report);
    scenarios.push(report);
  }
  return buildChaosRunReport(startedAt, Math.round(performance.now() - started), scenarios);
}

/** The seeds of a config: a list as given, or `n` meaning 1 to n. */
function seedsOf(seeds: ChaosHarnessConfig['seeds']): readonly number[] {
  return typeof seeds === 'number' ? Array.from({ length: seeds }, (_, index) => index + 1) : seeds;
}
