import { Logger } from '@nestjs/common';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { InMemoryRunStore } from '../runs/in-memory-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import { StartupError } from '../process/startup-error.js';
import { KyselyRunStore } from './kysely-run-store.js';
import type { RunDatabase } from './run-store-schema.js';

/** The environment variables that choose the store. */
export interface StoreEnvironment {
  /** A PostgreSQL URL: runs are kept there. */
  readonly DATABASE_URL?: string;
  /** The SQLite file's directory (default `data`, relative to the working directory). */
  readonly TOOLSHIELD_DATA_DIR?: string;
  /** `memory`: nothing is kept (tests, benchmarks). */
  readonly TOOLSHIELD_STORE?: string;
}

/** A store on PostgreSQL at `url`. */
export function postgresRunStore(url: string): KyselyRunStore {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // The server ends idle connections when it restarts, fails over or is told to: the pool
  // reports each as an error here and drops that client, and the next query connects again.
  // Without a listener Node would throw the error out of the process.
  pool.on('error', (error) =>
    new Logger('RunStore').warn(`PostgreSQL ended an idle connection: ${error.message}`),
  );
  return new KyselyRunStore(new Kysely<RunDatabase>({ dialect: new PostgresDialect({ pool }) }));
}

/**
 * A store in the SQLite file at `path` (created with its directory when missing). `node:sqlite`
 * is loaded only here, so a service on PostgreSQL starts on a Node without it.
 */
export async function sqliteRunStore(path: string): Promise<KyselyRunStore> {
  const { NodeSqliteDatabase } = await import('./node-sqlite-database.js').catch(
    (error: unknown) => {
      throw new StartupError(
        `SQLite needs node:sqlite (Node 22.5 or later) and this is Node ${process.versions.node}: run with Node 24 (npm run serve does), or set DATABASE_URL to a PostgreSQL server.`,
        { cause: error },
      );
    },
  );
  if (path !== ':memory:') mkdirSync(resolve(path, '..'), { recursive: true });
  const database = new NodeSqliteDatabase(path);
  return new KyselyRunStore(new Kysely<RunDatabase>({ dialect: new SqliteDialect({ database }) }));
}

/** `DATABASE_URL` as a PostgreSQL URL; throws {@link StartupError} for anything else. */
function postgresUrl(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'postgres:' && url?.protocol !== 'postgresql:') {
    const got = url ? `a ${url.protocol}// URL` : 'no URL';
    throw new StartupError(
      `DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database), got ${got}: only PostgreSQL is supported; leave DATABASE_URL unset to keep runs in SQLite.`,
    );
  }
  return url;
}

/** Where the store is, in words, for the startup line (no credentials). */
export function describeStore(env: StoreEnvironment): string {
  if (env.TOOLSHIELD_STORE === 'memory') return 'in memory (nothing is kept)';
  if (env.DATABASE_URL) return `PostgreSQL at ${postgresUrl(env.DATABASE_URL).host}`;
  return `SQLite at ${sqlitePath(env)}`;
}

function sqlitePath(env: StoreEnvironment): string {
  return resolve(env.TOOLSHIELD_DATA_DIR ?? 'data', 'toolshield.sqlite');
}

/**
 * The store `env` chooses: PostgreSQL with `DATABASE_URL`, else SQLite under the data
 * directory. Throws {@link StartupError} for a `DATABASE_URL` that is not PostgreSQL's.
 */
export async function createRunStore(env: StoreEnvironment): Promise<RunStore> {
  if (env.TOOLSHIELD_STORE === 'memory') return new InMemoryRunStore();
  if (env.TOOLSHIELD_STORE !== undefined && env.TOOLSHIELD_STORE !== '') {
    throw new StartupError(
      `TOOLSHIELD_STORE must be "memory" or unset, got ${JSON.stringify(env.TOOLSHIELD_STORE)}: DATABASE_URL chooses PostgreSQL, nothing chooses SQLite.`,
    );
  }
  if (env.DATABASE_URL) {
    postgresUrl(env.DATABASE_URL);
    return postgresRunStore(env.DATABASE_URL);
  }
  return sqliteRunStore(sqlitePath(env));
}
