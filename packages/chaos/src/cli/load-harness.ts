import type { runChaosHarness } from '../harness/run-chaos-harness.js';

/** What a run needs from the harness, which needs `@nestjs/testing` (an optional peer). */
export type HarnessRunner = typeof runChaosHarness;

/** The one line a run prints when `@nestjs/testing` is not installed. */
export const MISSING_NEST_TESTING =
  'the harness needs @nestjs/testing; install it next to @nestjs/core (npm install -D @nestjs/testing@^12)';

/**
 * Loads the harness when a run needs it, so that `--help`, `--version` and a bad command line
 * work in an app without `@nestjs/testing`. Resolves with `undefined` when that package is
 * missing; any other load failure is thrown.
 */
export async function loadHarness(): Promise<HarnessRunner | undefined> {
  try {
    return (await import('../harness/run-chaos-harness.js')).runChaosHarness;
  } catch (error) {
    if (isMissingNestTesting(error)) return undefined;
    throw error;
  }
}

function isMissingNestTesting(error: unknown): boolean {
  return (
    (error as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND' &&
    String((error as Error).message).includes("'@nestjs/testing'")
  );
}
