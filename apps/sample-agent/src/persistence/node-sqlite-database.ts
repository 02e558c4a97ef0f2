import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** Statements that return rows, for Node versions whose `StatementSync` has no `columns()`. */
const READER_SQL = /^\s*(select|with|pragma|values)\b|\breturning\b/i;

function isReader(statement: StatementSync, sql: string): boolean {
  const withColumns = statement as StatementSync & { columns?: () => unknown[] };
  return typeof withColumns.columns === 'function'
    ? withColumns.columns().length > 0
    : READER_SQL.test(sql);
}

type SqliteParameters = Parameters<StatementSync['all']>;

/**
 * Node's built-in `node:sqlite` (`DatabaseSync`) in the shape Kysely's `SqliteDialect` drives
 * (the better-sqlite3 interface): `prepare()` returning statements that take their parameters
 * as an array and say whether they return rows. No native module to build or download.
 *
 * @example
 * const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new NodeSqliteDatabase('data/app.sqlite') }) });
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly database: DatabaseSync;

  /** Opens (creates) the file at `path`, or `:memory:`; WAL, so a killed process loses no commit. */
  constructor(path: string) {
    this.database = new DatabaseSync(path);
    this.database.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;',
    );
  }

  close(): void {
    this.database.close();
  }

  prepare(sql: string): SqliteStatement {
    const statement = this.database.prepare(sql);
    const args = (parameters: ReadonlyArray<unknown>) => parameters as unknown as SqliteParameters;
    return {
      reader: isReader(statement, sql),
      all: (parameters) => statement.all(...args(parameters)),
      run: (parameters) => statement.run(...args(parameters)),
      iterate: (parameters) => statement.iterate(...args(parameters)),
    };
  }
}
