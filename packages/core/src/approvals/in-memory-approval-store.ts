import type { ApprovalDecision, ApprovalRecord } from './approval-record.js';
import type { ApprovalDecideResult, ApprovalListFilter, ApprovalStore } from './approval-store.js';
import { settleApproval } from './settle-approval.js';

/**
 * Keeps approval requests in process memory (copies in and out): one process only, and gone
 * on restart. Use a database-backed store (`RedisApprovalStore` from `@toolshield/redis`, or
 * your own) when a decision may reach another instance.
 *
 * @publicApi
 */
export class InMemoryApprovalStore implements ApprovalStore {
  private readonly records = new Map<string, ApprovalRecord>();

  async create(record: ApprovalRecord): Promise<void> {
    if (this.records.has(record.id)) throw new Error(`Approval ${record.id} exists already.`);
    this.records.set(record.id, structuredClone(record));
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const record = this.records.get(id);
    return record && structuredClone(record);
  }

  async list(filter: ApprovalListFilter = {}): Promise<readonly ApprovalRecord[]> {
    return [...this.records.values()]
      .filter(
        (record) =>
          (filter.status === undefined || record.status === filter.status) &&
          (filter.conversationId === undefined || record.conversationId === filter.conversationId),
      )
      .sort((a, b) => a.requestedAt - b.requestedAt)
      .map((record) => structuredClone(record));
  }

  async decide(id: string, decision: ApprovalDecision, now: number): Promise<ApprovalDecideResult> {
    const record = this.records.get(id);
    if (record === undefined) return { record: undefined, won: false };
    const settled = settleApproval(record, decision, now);
    if (settled !== undefined) this.records.set(id, settled);
    return { record: structuredClone(settled ?? record), won: settled !== undefined };
  }
}
