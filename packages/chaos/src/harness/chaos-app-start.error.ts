/**
 * The application under test could not be compiled or initialised for a harness run (a
 * provider threw, a module is missing, chaos was refused with `NODE_ENV=production`). The
 * original error is the `cause`; the CLI reports it on one line and exits with code 3.
 *
 * @publicApi
 */
export class ChaosAppStartError extends Error {
  override readonly name = 'ChaosAppStartError';

  constructor(
    readonly scenario: string,
    readonly seed: number,
    cause: unknown,
  ) {
    super(
      `the application could not start (scenario "${scenario}", seed ${seed}): ${
        (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]
      }`,
      { cause },
    );
  }
}
