import type { ChaosHarnessConfig } from '../harness/chaos-harness-config.js';
import { ChaosAppStartError } from '../harness/chaos-app-start.error.js';
import { writeChaosReports } from '../harness/write-chaos-reports.js';
import { scenarioLine, summaryTables } from './cli-summary.js';
import { CHAOS_EXIT_CODES } from './exit-codes.js';
import { loadChaosConfig } from './load-chaos-config.js';
import { loadHarness, MISSING_NEST_TESTING, type HarnessRunner } from './load-harness.js';
import { chaosPackageVersion } from './package-version.js';
import {
  CHAOS_CLI_HELP,
  ChaosCliUsageError,
  parseChaosCliArgs,
  type ChaosCliCommand,
} from './parse-cli-args.js';
import { selectScenarios } from './select-scenarios.js';

/** Where the CLI writes. @publicApi */
export interface ChaosCliOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * The `toolshield-chaos` command (see `toolshield-chaos --help`): `--help` and `--version`
 * print and return 0 without loading the harness; `run <config>` loads the harness (one line
 * and exit code 2 when `@nestjs/testing` is missing), loads the config module, keeps the
 * scenarios and seeds the flags pick, runs the harness, prints one PASS/FAIL line per
 * scenario, tables of retries, outcomes by type, breaker openings and latency percentiles,
 * writes the reports and ends with `chaos: N passed, M failed`. It never throws: every error
 * becomes one line on `output.error` (with its stack under `--verbose`) and an exit code from
 * {@link CHAOS_EXIT_CODES}.
 *
 * @publicApi
 */
export async function runChaosCli(
  args: readonly string[],
  output: ChaosCliOutput = console,
): Promise<number> {
  let command: ChaosCliCommand;
  try {
    command = parseChaosCliArgs(args);
  } catch (error) {
    output.error(`chaos: ${messageOf(error)}`);
    output.error('usage: toolshield-chaos run <config.js> [options] (see --help)');
    return CHAOS_EXIT_CODES.usage;
  }
  if (command.kind === 'help' || command.kind === 'version') {
    output.log(command.kind === 'help' ? CHAOS_CLI_HELP : chaosPackageVersion());
    return CHAOS_EXIT_CODES.passed;
  }
  const runChaosHarness = await loadHarness();
  if (runChaosHarness === undefined) {
    output.error(`chaos: ${MISSING_NEST_TESTING}`);
    return CHAOS_EXIT_CODES.usage;
  }
  let config: ChaosHarnessConfig;
  try {
    config = configFor(await loadChaosConfig(command.configPath), command);
  } catch (error) {
    const reason = error instanceof ChaosCliUsageError ? '' : `cannot load ${command.configPath}: `;
    report(output, `chaos: ${reason}${messageOf(error)}`, error, command.verbose);
    return CHAOS_EXIT_CODES.usage;
  }
  try {
    return await run(runChaosHarness, config, output);
  } catch (error) {
    if (error instanceof ChaosAppStartError) {
      report(output, `chaos: ${error.message}`, error.cause, command.verbose);
      return CHAOS_EXIT_CODES.appCannotStart;
    }
    report(output, `chaos: the harness failed: ${messageOf(error)}`, error, command.verbose);
    return CHAOS_EXIT_CODES.internal;
  }
}

/** The loaded config with the command line's scenario filter, seeds and report directory. */
function configFor(
  loaded: ChaosHarnessConfig,
  command: Extract<ChaosCliCommand, { kind: 'run' }>,
): ChaosHarnessConfig {
  const reports =
    command.reportsDir === undefined
      ? loaded.reports
      : { ...loaded.reports, dir: command.reportsDir };
  return {
    ...loaded,
    scenarios: selectScenarios(loaded.scenarios, command.scenarios),
    seeds: command.seeds ?? loaded.seeds,
    ...(reports === undefined ? {} : { reports }),
  };
}

async function run(
  runChaosHarness: HarnessRunner,
  config: ChaosHarnessConfig,
  output: ChaosCliOutput,
): Promise<number> {
  const result = await runChaosHarness(config, {
    onScenario: (scenario) => output.log(scenarioLine(scenario)),
  });
  output.log('');
  for (const line of summaryTables(result)) output.log(line);
  if (config.reports) {
    for (const file of await writeChaosReports(
      result,
      config.reports.dir,
      config.reports.formats,
    )) {
      output.log(`report: ${file}`);
    }
  }
  output.log(`chaos: ${result.totals.passed} passed, ${result.totals.failed} failed`);
  return result.status === 'PASS' ? CHAOS_EXIT_CODES.passed : CHAOS_EXIT_CODES.scenarioFailed;
}

/** One line for people; the stack (and the cause's) only when asked for. */
function report(output: ChaosCliOutput, line: string, error: unknown, verbose: boolean): void {
  output.error(line);
  if (verbose && error instanceof Error && error.stack) output.error(error.stack);
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
