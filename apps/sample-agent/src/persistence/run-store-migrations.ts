import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

/**
 * The schema's history, oldest first. Never edit a migration that has shipped: add the next.
 * Column types are the ones SQLite and PostgreSQL both understand; JSON is kept as text.
 */
const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_runs_events_conversations': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('runs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('task', 'text', (column) => column.notNull())
        .addColumn('scenario', 'text')
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('final_answer', 'text')
        .addColumn('reason', 'text')
        .execute();
      await db.schema.createIndex('runs_status').on('runs').column('status').execute();
      await db.schema
        .createTable('run_events')
        .addColumn('run_id', 'text', (column) => column.notNull())
        .addColumn('seq', 'integer', (column) => column.notNull())
        .addColumn('at', 'double precision', (column) => column.notNull())
        .addColumn('data', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('run_events_pk', ['run_id', 'seq'])
        .execute();
      await db.schema
        .createTable('conversations')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('messages', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull().defaultTo(sql`''`))
        .execute();
    },
  },
  '0002_runs_idempotency_key': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('runs').addColumn('idempotency_key', 'text').execute();
      await db.schema.alterTable('runs').addColumn('request_fingerprint', 'text').execute();
      // Unique where set: both databases let any number of rows have none.
      await db.schema
        .createIndex('runs_idempotency_key')
        .on('runs')
        .column('idempotency_key')
        .unique()
        .execute();
    },
  },
  '0003_run_events_instance': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('run_events').addColumn('instance', 'text').execute();
    },
  },
  '0004_approvals': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('approvals')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('run_id', 'text')
        .addColumn('tool', 'text', (column) => column.notNull())
        .addColumn('call_id', 'text', (column) => column.notNull())
        .addColumn('args', 'text', (column) => column.notNull())
        .addColumn('shown_args', 'text', (column) => column.notNull())
        .addColumn('idempotency_key', 'text', (column) => column.notNull())
        .addColumn('metadata', 'text')
        .addColumn('requested_at', 'double precision', (column) => column.notNull())
        .addColumn('expires_at', 'double precision', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('decision', 'text')
        .execute();
      await db.schema.createIndex('approvals_status').on('approvals').column('status').execute();
      await db.schema.createIndex('approvals_run_id').on('approvals').column('run_id').execute();
    },
  },
};

/** Kysely's migrator reads the migrations from here (no files to ship or find). */
export const runStoreMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
