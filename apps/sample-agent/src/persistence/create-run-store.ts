import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { InMemoryRunStore } from '../runs/in-memory-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import { KyselyRunStore } from './kysely-run-store.js';
import { NodeSqliteDatabase } from './node-sqlite-database.js';
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
  return new KyselyRunStore(new Kysely<RunDatabase>({ dialect: new PostgresDialect({ pool }) }));
}

/** A store in the SQLite file at `path` (created with its directory when missing). */
export function sqliteRunStore(path: string): KyselyRunStore {
  if (path !== ':memory:') mkdirSync(resolve(path, '..'), { recursive: true });
  const database = new NodeSqliteDatabase(path);
  return new KyselyRunStore(new Kysely<RunDatabase>({ dialect: new SqliteDialect({ database }) }));
}

/** Where the store is, in words, for the startup line (no credentials). */
export function describeStore(env: StoreEnvironment): string {
  if (env.TOOLSHIELD_STORE === 'memory') return 'in memory (nothing is kept)';
  if (env.DATABASE_URL) return `PostgreSQL at ${new URL(env.DATABASE_URL).host}`;
  return `SQLite at ${sqlitePath(env)}`;
}

function sqlitePath(env: StoreEnvironment): string {
  return resolve(env.TOOLSHIELD_DATA_DIR ?? 'data', 'toolshield.sqlite');
}

/** The store `env` chooses: PostgreSQL with `DATABASE_URL`, else SQLite under the data directory. */
export function createRunStore(env: StoreEnvironment): RunStore {
  if (env.TOOLSHIELD_STORE === 'memory') return new InMemoryRunStore();
  if (env.DATABASE_URL) return postgresRunStore(env.DATABASE_URL);
  return sqliteRunStore(sqlitePath(env));
}
