import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { buildApp, startServerProcess } from '../fixtures/server-process.js';
import { freshSqliteDirectory } from '../fixtures/stores.js';

jest.setTimeout(120_000);

describe('REDIS_URL over a store other instances cannot read', () => {
  beforeAll(() => buildApp());

  it('stops the service at startup with one line naming DATABASE_URL', async () => {
    const { dir, drop } = freshSqliteDirectory();
    try {
      await expect(
        startServerProcess({
          REDIS_URL: 'redis://127.0.0.1:1',
          DATABASE_URL: undefined,
          TOOLSHIELD_STORE: undefined,
          TOOLSHIELD_DATA_DIR: dir,
        }),
      ).rejects.toThrow(
        /exited \(1\) before listening:\n(.*\n)?toolshield sample agent: Could not start: Invalid run queue settings \(environment\): DATABASE_URL must be a PostgreSQL URL every instance shares when REDIS_URL is set, got nothing \(SQLite\)\.\n$/,
      );
    } finally {
      await drop();
    }
  });
});
