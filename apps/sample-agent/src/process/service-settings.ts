import { StartupError } from './startup-error.js';

/** The environment variables of how the service listens and stops. */
export interface ServiceEnvironment {
  /** The port on 127.0.0.1 (default 3000; 0 picks a free one). */
  readonly PORT?: string;
  /** How long a stop waits for runs in progress before leaving them to resume (default 8000). */
  readonly TOOLSHIELD_SHUTDOWN_GRACE_MS?: string;
}

/** How the service listens and stops, read and checked from the environment. */
export interface ServiceSettings {
  readonly port: number;
  readonly shutdownGraceMs: number;
}

/** The default grace: within `docker stop`'s 10 s before it sends SIGKILL. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 8_000;

function wholeNumber(name: string, value: string, max: number, hint: string): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number > max) {
    throw new StartupError(
      `${name} must be a whole number from 0 to ${max}${hint}, got ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

/** Reads `PORT` and `TOOLSHIELD_SHUTDOWN_GRACE_MS`; throws {@link StartupError} naming a bad one. */
export function readServiceSettings(env: ServiceEnvironment): ServiceSettings {
  return {
    port:
      env.PORT === undefined || env.PORT === ''
        ? 3_000
        : wholeNumber('PORT', env.PORT, 65_535, ' (0 picks a free port)'),
    shutdownGraceMs:
      env.TOOLSHIELD_SHUTDOWN_GRACE_MS === undefined || env.TOOLSHIELD_SHUTDOWN_GRACE_MS === ''
        ? DEFAULT_SHUTDOWN_GRACE_MS
        : wholeNumber(
            'TOOLSHIELD_SHUTDOWN_GRACE_MS',
            env.TOOLSHIELD_SHUTDOWN_GRACE_MS,
            3_600_000,
            ' (milliseconds)',
          ),
  };
}
