import type {
  ApprovalDecideResult,
  ApprovalDecision,
  ApprovalListFilter,
  ApprovalRecord,
  ApprovalStatus,
  ApprovalStore,
} from '@toolshield/core/approvals';
import type { Kysely, Selectable } from 'kysely';
import type { ApprovalsTable, RunDatabase } from './run-store-schema.js';

function toRecord(row: Selectable<ApprovalsTable>): ApprovalRecord {
  return {
    id: row.id,
    tool: row.tool,
    callId: row.call_id,
    args: JSON.parse(row.args),
    shownArgs: JSON.parse(row.shown_args),
    idempotencyKey: row.idempotency_key,
    ...(row.run_id === null ? {} : { conversationId: row.run_id }),
    ...(row.metadata === null ? {} : { metadata: JSON.parse(row.metadata) }),
    requestedAt: Number(row.requested_at),
    expiresAt: Number(row.expires_at),
    status: row.status as ApprovalStatus,
    ...(row.decision === null ? {} : { decision: JSON.parse(row.decision) }),
  };
}

/**
 * toolshield's `ApprovalStore` in the run database (SQLite or PostgreSQL), so a decision can
 * reach any instance, and a restart loses no waiting call. `decide` is one conditional
 * `UPDATE … WHERE status = 'pending'` (and `expires_at` after `now` for a person's decision,
 * at or before it for an expiry): of concurrent decisions, on any instance, the database lets
 * exactly one through.
 */
export class KyselyApprovalStore implements ApprovalStore {
  constructor(private readonly db: Kysely<RunDatabase>) {}

  async create(record: ApprovalRecord): Promise<void> {
    await this.db
      .insertInto('approvals')
      .values({
        id: record.id,
        run_id: record.conversationId ?? null,
        tool: record.tool,
        call_id: record.callId,
        args: JSON.stringify(record.args ?? null),
        shown_args: JSON.stringify(record.shownArgs ?? null),
        idempotency_key: record.idempotencyKey,
        metadata: record.metadata === undefined ? null : JSON.stringify(record.metadata),
        requested_at: record.requestedAt,
        expires_at: record.expiresAt,
        status: record.status,
        decision: record.decision === undefined ? null : JSON.stringify(record.decision),
      })
      .execute();
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async list(filter: ApprovalListFilter = {}): Promise<readonly ApprovalRecord[]> {
    let query = this.db.selectFrom('approvals').selectAll();
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.conversationId !== undefined) {
      query = query.where('run_id', '=', filter.conversationId);
    }
    const rows = await query.orderBy('requested_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async decide(id: string, decision: ApprovalDecision, now: number): Promise<ApprovalDecideResult> {
    const row = await this.db
      .updateTable('approvals')
      .set({ status: decision.status, decision: JSON.stringify(decision) })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', decision.status === 'expired' ? '<=' : '>', now)
      .returningAll()
      .executeTakeFirst();
    if (row) return { record: toRecord(row), won: true };
    return { record: await this.get(id), won: false };
  }
}
