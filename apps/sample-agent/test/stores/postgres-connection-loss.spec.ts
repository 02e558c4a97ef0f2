import { afterEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { postgresRunStore } from '../../src/persistence/create-run-store.js';
import type { KyselyRunStore } from '../../src/persistence/kysely-run-store.js';
import { freshPostgresDatabase, TEST_DATABASE_URL } from '../fixtures/stores.js';

/** The first result of `query` that does not reject, asking every 50 ms for up to 5 s. */
async function settled<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      if (attempt === 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const describeWithPostgres = TEST_DATABASE_URL ? describe : describe.skip;

// PostgreSQL ends the idle connections of a store's pool when it restarts, fails over, or a
// database is dropped WITH (FORCE) (as the specs' cleanup does). Without an 'error' listener
// on the pool, that error was thrown out of the process ("Unhandled error. (error:
// terminating connection due to administrator command)"), which failed a run-store spec.
describeWithPostgres('a PostgreSQL store whose idle connections the server ends', () => {
  let store: KyselyRunStore | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await store?.close();
    await drop?.();
  });

  it('does not throw out of the process, and the next query connects again', async () => {
    const database = await freshPostgresDatabase(TEST_DATABASE_URL as string);
    drop = database.drop;
    store = postgresRunStore(database.url);
    await store.migrate();
    const name = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool hears of each ended connection as an error on its idle client (a query that
    // takes such a client first fails); then it connects again.
    expect(await settled(() => (store as KyselyRunStore).runningRuns())).toEqual([]);
  });
});
