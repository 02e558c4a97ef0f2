import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { queueSettingsFrom } from './queue-settings.js';

const SHARED = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://db/toolshield' };

describe('queueSettingsFrom', () => {
  it('is undefined without REDIS_URL: runs stay in process, as `npm run serve` does by default', () => {
    expect(queueSettingsFrom({})).toBeUndefined();
    expect(
      queueSettingsFrom({ REDIS_URL: ' ', DATABASE_URL: SHARED.DATABASE_URL }),
    ).toBeUndefined();
  });

  it('makes every instance a worker with the defaults', () => {
    expect(queueSettingsFrom({ ...SHARED, INSTANCE_ID: 'api-1' })).toEqual({
      redisUrl: SHARED.REDIS_URL,
      worker: true,
      concurrency: 4,
      lockMs: 4_000,
      stalledIntervalMs: 2_000,
      shutdownGraceMs: 8_000,
      instanceId: 'api-1',
    });
    expect(queueSettingsFrom({ ...SHARED, RUN_WORKER: 'false' })?.worker).toBe(false);
  });

  it('takes any whole number from each minimum up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1_000, max: 600_000 }),
        fc.integer({ min: 100, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        (concurrency, lockMs, stalledIntervalMs, shutdownGraceMs) => {
          const settings = queueSettingsFrom({
            ...SHARED,
            RUN_CONCURRENCY: `${concurrency}`,
            RUN_LOCK_MS: `${lockMs}`,
            RUN_STALLED_INTERVAL_MS: `${stalledIntervalMs}`,
            TOOLSHIELD_SHUTDOWN_GRACE_MS: `${shutdownGraceMs}`,
          });
          expect(settings).toMatchObject({
            concurrency,
            lockMs,
            stalledIntervalMs,
            shutdownGraceMs,
          });
        },
      ),
    );
  });

  it('refuses bad values together, naming each variable', () => {
    expect(() =>
      queueSettingsFrom({
        ...SHARED,
        RUN_WORKER: 'no',
        RUN_CONCURRENCY: 'NaN',
        RUN_LOCK_MS: '500',
        RUN_STALLED_INTERVAL_MS: '1.5',
        TOOLSHIELD_SHUTDOWN_GRACE_MS: '-1',
      }),
    ).toThrow(
      'Invalid run queue settings (environment): RUN_WORKER must be true or false, got "no"; ' +
        'RUN_CONCURRENCY must be an integer from 1 up, got "NaN"; ' +
        'RUN_LOCK_MS must be an integer from 1000 up, got "500"; ' +
        'RUN_STALLED_INTERVAL_MS must be an integer from 100 up, got "1.5"; ' +
        'TOOLSHIELD_SHUTDOWN_GRACE_MS must be an integer from 0 up, got "-1".',
    );
  });

  it('refuses a queue over a store other instances cannot read, and a URL that is not Redis', () => {
    expect(() => queueSettingsFrom({ REDIS_URL: SHARED.REDIS_URL })).toThrow(
      'DATABASE_URL must be a PostgreSQL URL every instance shares when REDIS_URL is set, got nothing (SQLite)',
    );
    expect(() => queueSettingsFrom({ ...SHARED, TOOLSHIELD_STORE: 'memory' })).toThrow(
      'got TOOLSHIELD_STORE=memory',
    );
    expect(() => queueSettingsFrom({ ...SHARED, REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL',
    );
  });
});
