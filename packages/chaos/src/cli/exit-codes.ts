/**
 * The exit codes of `toolshield-chaos`.
 *
 * @publicApi
 */
export const CHAOS_EXIT_CODES = {
  /** Every scenario passed. */
  passed: 0,
  /** At least one scenario failed: an invariant was violated. */
  scenarioFailed: 1,
  /** A bad command line, a config that cannot be loaded, or a filter that matched nothing. */
  usage: 2,
  /** The application under test could not start (e.g. chaos refused with `NODE_ENV=production`). */
  appCannotStart: 3,
  /** The harness itself failed unexpectedly: a bug, please report it with `--verbose` output. */
  internal: 4,
} as const;
