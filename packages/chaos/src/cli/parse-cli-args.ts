import { parseArgs } from 'node:util';

/** What the command line asked for. */
export type ChaosCliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run';
      readonly configPath: string;
      /** Scenario names or picomatch globs to keep (empty: all). */
      readonly scenarios: readonly string[];
      /** Seeds replacing the config's: a count (1 to n) or a list. */
      readonly seeds?: number | readonly number[];
      /** A report directory replacing the config's. */
      readonly reportsDir?: string;
      readonly verbose: boolean;
    };

/** A command line the CLI cannot act on; the message says why. */
export class ChaosCliUsageError extends Error {
  override readonly name = 'ChaosCliUsageError';
}

export const CHAOS_CLI_HELP = `usage: toolshield-chaos run <config.js> [options]
       toolshield-chaos --help | --version

Runs every scenario of the config with every seed against the app, in virtual time, checks
the invariants, prints a line per scenario and a breakdown, and writes the config's reports.

options:
  -s, --scenario <name|glob>  run only the scenarios with this name or matching this glob
                              (picomatch); repeat it to select several
      --seeds <n|a,b,...>     seeds 1 to n, or exactly these seeds (replaces the config's)
      --seed <n>              run with this seed; repeat it for several (replaces the config's)
      --reports <dir>         write the reports to <dir> (replaces the config's reports.dir)
  -v, --verbose               print stack traces of errors
  -h, --help                  print this help
      --version               print the version of @toolshield/chaos

exit codes:
  0  every scenario passed
  1  a scenario failed (an invariant was violated)
  2  usage: a bad command line, a config that cannot be loaded, no scenario matched, or
     @nestjs/testing (which a run needs) not installed
  3  the application could not start (for example, chaos refused with NODE_ENV=production)
  4  the harness failed unexpectedly (a bug: report it with the --verbose output)`;

/** Reads the command line; throws {@link ChaosCliUsageError} when it makes no sense. */
export function parseChaosCliArgs(args: readonly string[]): ChaosCliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        scenario: { type: 'string', short: 's', multiple: true },
        seeds: { type: 'string' },
        seed: { type: 'string', multiple: true },
        reports: { type: 'string' },
        verbose: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new ChaosCliUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, configPath, ...rest] = positionals;
  if (command !== 'run') {
    throw new ChaosCliUsageError(
      command === undefined ? 'no command given' : `unknown command "${command}"`,
    );
  }
  if (configPath === undefined) throw new ChaosCliUsageError('run needs a config file');
  if (rest.length > 0) throw new ChaosCliUsageError(`unexpected argument "${rest[0]}"`);
  if (values.seeds !== undefined && values.seed !== undefined) {
    throw new ChaosCliUsageError('give --seeds or --seed, not both');
  }
  const seeds =
    values.seeds !== undefined
      ? parseSeeds(values.seeds)
      : values.seed?.map((seed) => parseSeed(seed, '--seed'));
  return {
    kind: 'run',
    configPath,
    scenarios: values.scenario ?? [],
    ...(seeds === undefined ? {} : { seeds }),
    ...(values.reports === undefined ? {} : { reportsDir: values.reports }),
    verbose: values.verbose,
  };
}

/** `--seeds 20` (a count) or `--seeds 1,7,42` (a list). */
function parseSeeds(text: string): number | number[] {
  if (!text.includes(',')) {
    const count = parseSeed(text, '--seeds');
    if (count < 1) throw new ChaosCliUsageError('--seeds needs a count of at least 1');
    return count;
  }
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => parseSeed(part, '--seeds'));
}

function parseSeed(text: string, flag: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new ChaosCliUsageError(`${flag} takes whole numbers, not "${text}"`);
  }
  return Number(trimmed);
}
