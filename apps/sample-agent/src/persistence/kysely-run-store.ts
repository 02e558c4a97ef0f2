import type { ConversationMessage } from '@toolshield/core/agent';
import type { Kysely, Selectable } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { RunIdempotency } from '../runs/idempotency.js';
import type { RunEvent } from '../runs/run-event.js';
import type { RunCursor } from '../runs/run-page.js';
import type { RunCompletion, RunRecord, RunStatus } from '../runs/run-record.js';
import type { RunStore } from '../runs/run-store.js';
import type { RunDatabase, RunsTable } from './run-store-schema.js';
import { runStoreMigrations } from './run-store-migrations.js';
import { KyselyApprovalStore } from './kysely-approval-store.js';

/** Rows per insert, far below both databases' parameter limits. */
const EVENT_CHUNK = 200;

function toRecord(row: Selectable<RunsTable>): RunRecord {
  return {
    id: row.id,
    task: row.task,
    ...(row.scenario === null ? {} : { scenario: row.scenario }),
    model: row.model,
    status: row.status as RunStatus,
    createdAt: row.created_at,
    ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
    ...(row.final_answer === null ? {} : { finalAnswer: row.final_answer }),
    ...(row.reason === null ? {} : { reason: JSON.parse(row.reason) }),
  };
}

/**
 * The {@link RunStore} on a SQL database through Kysely: SQLite (over `node:sqlite`) or
 * PostgreSQL (over `pg`), one implementation for both. `migrate()` brings the schema up to
 * date with Kysely's migrator; the conversation history (the core `ToolCallLedgerStore`)
 * lives in the same database as the runs and their events.
 */
export class KyselyRunStore implements RunStore {
  private readonly queuedSaves = new Map<
    string,
    { messages: readonly ConversationMessage[]; done: Promise<void> }
  >();
  private readonly lastSave = new Map<string, Promise<void>>();
  readonly approvals: KyselyApprovalStore;

  constructor(private readonly db: Kysely<RunDatabase>) {
    this.approvals = new KyselyApprovalStore(db);
  }

  async migrate(): Promise<void> {
    const { error, results } = await new Migrator({
      db: this.db,
      provider: runStoreMigrations,
    }).migrateToLatest();
    if (error) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      throw new Error(`Migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
    }
  }

  async createRun(run: RunRecord, idempotency?: RunIdempotency): Promise<void> {
    await this.db
      .insertInto('runs')
      .values({
        id: run.id,
        task: run.task,
        scenario: run.scenario ?? null,
        model: run.model,
        status: run.status,
        created_at: run.createdAt,
        finished_at: null,
        final_answer: null,
        reason: null,
        idempotency_key: idempotency?.key ?? null,
        request_fingerprint: idempotency?.fingerprint ?? null,
      })
      .execute();
  }

  async runByIdempotencyKey(
    key: string,
  ): Promise<{ run: RunRecord; fingerprint: string } | undefined> {
    const row = await this.db
      .selectFrom('runs')
      .selectAll()
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row && { run: toRecord(row), fingerprint: row.request_fingerprint ?? '' };
  }

  async finishRun(id: string, completion: RunCompletion): Promise<void> {
    await this.db
      .updateTable('runs')
      .set({
        status: completion.status,
        finished_at: completion.finishedAt ?? null,
        final_answer: completion.finalAnswer ?? null,
        reason: completion.reason === undefined ? null : JSON.stringify(completion.reason),
      })
      .where('id', '=', id)
      .execute();
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    const row = await this.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async listRuns(limit = 100, after?: RunCursor): Promise<RunRecord[]> {
    let query = this.db.selectFrom('runs').selectAll();
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
        ]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    return rows.map(toRecord);
  }

  async runningRuns(): Promise<RunRecord[]> {
    return this.runsWithStatus('running');
  }

  async runsAwaitingApproval(): Promise<RunRecord[]> {
    return this.runsWithStatus('awaiting_approval');
  }

  async suspendRun(id: string): Promise<boolean> {
    return this.move(id, 'running', 'awaiting_approval');
  }

  async wakeRun(id: string): Promise<boolean> {
    return this.move(id, 'awaiting_approval', 'running');
  }

  /** One conditional UPDATE: only a run in `from` moves, so concurrent movers get one winner. */
  private async move(id: string, from: RunStatus, to: RunStatus): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ status: to })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async runsWithStatus(status: RunStatus): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom('runs')
      .selectAll()
      .where('status', '=', status)
      .orderBy('created_at')
      .execute();
    return rows.map(toRecord);
  }

  async appendEvents(events: readonly RunEvent[]): Promise<void> {
    for (let start = 0; start < events.length; start += EVENT_CHUNK) {
      const chunk = events.slice(start, start + EVENT_CHUNK);
      await this.db
        .insertInto('run_events')
        .values(
          chunk.map((event) => ({
            run_id: event.runId,
            seq: event.seq,
            at: event.at,
            instance: event.instance ?? null,
            data: JSON.stringify(event.data),
          })),
        )
        .execute();
    }
  }

  async events(runId: string, afterSeq = 0): Promise<RunEvent[]> {
    const rows = await this.db
      .selectFrom('run_events')
      .selectAll()
      .where('run_id', '=', runId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({
      runId: row.run_id,
      seq: Number(row.seq),
      at: Number(row.at),
      ...(row.instance === null ? {} : { instance: row.instance }),
      data: JSON.parse(row.data),
    }));
  }

  async load(conversationId: string): Promise<readonly ConversationMessage[] | undefined> {
    const row = await this.db
      .selectFrom('conversations')
      .select('messages')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return row && (JSON.parse(row.messages) as ConversationMessage[]);
  }

  /**
   * Saves are coalesced per conversation: while one write is in flight, the saves that follow
   * wait behind it as one write of the newest history (the agent runner checkpoints after
   * every tool result, so a parallel batch asks for many). Each promise resolves once a write
   * holding its history, or a newer one, is stored; writes of one conversation never overlap.
   */
  save(conversationId: string, messages: readonly ConversationMessage[]): Promise<void> {
    const queued = this.queuedSaves.get(conversationId);
    if (queued) {
      queued.messages = messages;
      return queued.done;
    }
    const previous = this.lastSave.get(conversationId) ?? Promise.resolve();
    const entry = { messages, done: Promise.resolve() };
    entry.done = previous
      .catch(() => undefined)
      .then(() => {
        this.queuedSaves.delete(conversationId);
        return this.upsertConversation(conversationId, entry.messages);
      });
    this.queuedSaves.set(conversationId, entry);
    this.lastSave.set(conversationId, entry.done);
    entry.done
      .finally(() => {
        if (this.lastSave.get(conversationId) === entry.done) this.lastSave.delete(conversationId);
      })
      .catch(() => undefined);
    return entry.done;
  }

  private async upsertConversation(
    conversationId: string,
    messages: readonly ConversationMessage[],
  ): Promise<void> {
    const values = {
      messages: JSON.stringify(messages),
      updated_at: new Date().toISOString(),
    };
    await this.db
      .insertInto('conversations')
      .values({ id: conversationId, ...values })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(values))
      .execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
