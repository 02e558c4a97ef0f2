import { InvalidOptionsError, type OptionIssue } from '@toolshield/core';
import { hostname } from 'node:os';

/** The environment variables that put runs on a queue. */
export interface QueueEnvironment {
  /** A Redis URL: runs become BullMQ jobs there, and events fan out through its pub/sub. */
  readonly REDIS_URL?: string;
  /** `false`: this instance serves the API but works no runs. */
  readonly RUN_WORKER?: string;
  /** Runs one instance works at a time (default 4). */
  readonly RUN_CONCURRENCY?: string;
  /** How long a worker's hold on a run lasts without renewal, in ms (default 4000). */
  readonly RUN_LOCK_MS?: string;
  /** How often instances look for runs whose worker died, in ms (default 2000). */
  readonly RUN_STALLED_INTERVAL_MS?: string;
  /** How long SIGTERM waits for this instance's runs to finish before handing them back, in ms (default 8000). */
  readonly TOOLSHIELD_SHUTDOWN_GRACE_MS?: string;
  /** This instance's name in the events it writes (default `<host>-<pid>`). */
  readonly INSTANCE_ID?: string;
  /** Read to refuse a queue over a store other instances cannot share. */
  readonly DATABASE_URL?: string;
  readonly TOOLSHIELD_STORE?: string;
}

/** How this instance takes part in the run queue. */
export interface QueueSettings {
  readonly redisUrl: string;
  /** Whether this instance works runs (every instance serves the API). */
  readonly worker: boolean;
  readonly concurrency: number;
  readonly lockMs: number;
  readonly stalledIntervalMs: number;
  readonly shutdownGraceMs: number;
  readonly instanceId: string;
}

/** Injection token of the {@link QueueSettings}. */
export const QUEUE_SETTINGS = Symbol('QueueSettings');

const DEFAULTS = {
  concurrency: 4,
  lockMs: 4_000,
  stalledIntervalMs: 2_000,
  shutdownGraceMs: 8_000,
} as const;

function wholeNumber(
  env: QueueEnvironment,
  name: keyof QueueEnvironment,
  fallback: number,
  min: number,
  issues: OptionIssue[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= min) return value;
  issues.push({ path: name, received: JSON.stringify(raw), expected: `an integer from ${min} up` });
  return fallback;
}

/**
 * The queue settings `env` asks for, or undefined without `REDIS_URL` (runs stay in process).
 * Bad values are refused together in one `InvalidOptionsError` naming each variable; a queue
 * over SQLite or memory is refused too, since other instances could not read its runs.
 */
export function queueSettingsFrom(env: QueueEnvironment): QueueSettings | undefined {
  const redisUrl = env.REDIS_URL?.trim();
  if (!redisUrl) return undefined;
  const issues: OptionIssue[] = [];
  if (!/^rediss?:\/\//.test(redisUrl)) {
    issues.push({
      path: 'REDIS_URL',
      received: 'a non-Redis URL',
      expected: 'a redis:// or rediss:// URL',
    });
  }
  if (!env.DATABASE_URL || env.TOOLSHIELD_STORE === 'memory') {
    issues.push({
      path: 'DATABASE_URL',
      received: env.TOOLSHIELD_STORE === 'memory' ? 'TOOLSHIELD_STORE=memory' : 'nothing (SQLite)',
      expected: 'a PostgreSQL URL every instance shares when REDIS_URL is set',
    });
  }
  const worker = env.RUN_WORKER?.trim().toLowerCase() ?? 'true';
  if (worker !== 'true' && worker !== 'false') {
    issues.push({
      path: 'RUN_WORKER',
      received: JSON.stringify(env.RUN_WORKER),
      expected: 'true or false',
    });
  }
  const settings: QueueSettings = {
    redisUrl,
    worker: worker !== 'false',
    concurrency: wholeNumber(env, 'RUN_CONCURRENCY', DEFAULTS.concurrency, 1, issues),
    lockMs: wholeNumber(env, 'RUN_LOCK_MS', DEFAULTS.lockMs, 1_000, issues),
    stalledIntervalMs: wholeNumber(
      env,
      'RUN_STALLED_INTERVAL_MS',
      DEFAULTS.stalledIntervalMs,
      100,
      issues,
    ),
    shutdownGraceMs: wholeNumber(
      env,
      'TOOLSHIELD_SHUTDOWN_GRACE_MS',
      DEFAULTS.shutdownGraceMs,
      0,
      issues,
    ),
    instanceId: env.INSTANCE_ID?.trim() || `${hostname()}-${process.pid}`,
  };
  if (issues.length > 0) throw new InvalidOptionsError('run queue settings (environment)', issues);
  return settings;
}

/** How the startup line describes the queue (no credentials). */
export function describeQueue(settings: QueueSettings | undefined): string {
  if (!settings) return 'runs worked in this process (no REDIS_URL)';
  const role = settings.worker
    ? `worker, ${settings.concurrency} at a time`
    : 'API only (RUN_WORKER=false)';
  return `runs queued on Redis at ${new URL(settings.redisUrl).host} (instance ${settings.instanceId}: ${role})`;
}
