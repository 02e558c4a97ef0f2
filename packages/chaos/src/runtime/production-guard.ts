/**
 * Thrown when chaos is switched on while `NODE_ENV` is `production` without
 * `allowInProduction: true`.
 *
 * @publicApi
 */
export class ChaosInProductionError extends Error {
  constructor() {
    super(
      'Refusing to enable chaos injection: NODE_ENV is "production". Chaos injects real failures ' +
        'into tool calls; if you really mean to run it in production, pass allowInProduction: true.',
    );
    this.name = 'ChaosInProductionError';
  }
}

/**
 * Throws {@link ChaosInProductionError} when `env.NODE_ENV` is `production` (any case,
 * surrounding spaces ignored) and production was not explicitly allowed.
 *
 * @publicApi
 */
export function assertChaosAllowed(
  env: Readonly<Record<string, string | undefined>>,
  allowInProduction: boolean,
): void {
  if (!allowInProduction && env['NODE_ENV']?.trim().toLowerCase() === 'production') {
    throw new ChaosInProductionError();
  }
}
