import type { ScenarioReport } from '../harness/chaos-report.js';
import { runChaosHarness } from '../harness/run-chaos-harness.js';
import { writeChaosReports } from '../harness/write-chaos-reports.js';
import { loadChaosConfig } from './load-chaos-config.js';

/** Where the CLI writes. @publicApi */
export interface ChaosCliOutput {
  log(line: string): void;
  error(line: string): void;
}

const USAGE = 'usage: toolshield-chaos run <config.js>';

/**
 * The `toolshield-chaos` command: `run <config>` loads the config module, runs the harness,
 * writes the reports, prints one PASS/FAIL line per scenario and `chaos: N passed, M failed`,
 * and returns the exit code: 0 when every scenario passed, 1 on a failure, 2 on a usage or
 * config error.
 *
 * @publicApi
 */
export async function runChaosCli(
  args: readonly string[],
  output: ChaosCliOutput = console,
): Promise<number> {
  const [command, configPath, ...rest] = args;
  if (command !== 'run' || configPath === undefined || rest.length > 0) {
    output.error(USAGE);
    return 2;
  }
  let config;
  try {
    config = await loadChaosConfig(configPath);
  } catch (error) {
    output.error(
      `chaos: cannot load ${configPath}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  }
  const report = await runChaosHarness(config, {
    onScenario: (scenario) => output.log(scenarioLine(scenario)),
  });
  if (config.reports) {
    for (const file of await writeChaosReports(
      report,
      config.reports.dir,
      config.reports.formats,
    )) {
      output.log(`report: ${file}`);
    }
  }
  output.log(`chaos: ${report.totals.passed} passed, ${report.totals.failed} failed`);
  return report.status === 'PASS' ? 0 : 1;
}

/** `PASS name (seeds, calls, retries)` or `FAIL name: the first violation`. */
function scenarioLine(scenario: ScenarioReport): string {
  const retries: Record<string, number> = {};
  for (const seed of scenario.seeds) {
    for (const [count, calls] of Object.entries(seed.retryCounts))
      retries[count] = (retries[count] ?? 0) + calls;
  }
  const facts = `${scenario.seeds.length} seeds, ${scenario.calls} calls, retries ${JSON.stringify(retries)}`;
  if (scenario.status === 'PASS') return `PASS ${scenario.name} (${facts})`;
  const failed = scenario.seeds.filter((seed) => seed.status === 'FAIL');
  const first = failed[0]?.violations[0];
  return `FAIL ${scenario.name} (${facts}; ${failed.length} seed(s) failed, first: seed ${failed[0]?.seed} ${first?.invariant}: ${first?.message})`;
}
