import type { ApprovalDecision, ApprovalRecord, ApprovalStatus } from './approval-record.js';

/**
 * What {@link ApprovalStore.decide} did: the record as it stands afterwards, and whether this
 * decision was the one that settled it.
 *
 * @publicApi
 */
export interface ApprovalDecideResult {
  /** The record after the attempt; `undefined` for an unknown id. */
  readonly record: ApprovalRecord | undefined;
  /** `true` only for the one decision that moved the record out of `pending`. */
  readonly won: boolean;
}

/** @publicApi */
export interface ApprovalListFilter {
  /** Only records stored with this status. */
  readonly status?: ApprovalStatus;
  /** Only the records of this conversation (agent run). */
  readonly conversationId?: string;
}

/**
 * Where approval requests wait for a person, so that a decision can reach any process (another
 * instance, the same one after a restart). Implement it over your database;
 * `InMemoryApprovalStore` is the default. Provide an implementation under the same-named
 * token in Nest, or as `ToolshieldModule`'s `approvals.store`.
 *
 * `decide` is the one transition and must be atomic: of any number of concurrent decisions on
 * a record, across processes, exactly one wins (see {@link settleApproval} for the rule).
 *
 * @publicApi
 */
export interface ApprovalStore {
  /** Stores a new `pending` record (its id is new). */
  create(record: ApprovalRecord): Promise<void>;
  /** The record as stored, or `undefined`. */
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** The records matching `filter`, oldest request first. */
  list(filter?: ApprovalListFilter): Promise<readonly ApprovalRecord[]>;
  /**
   * Settles a record if it is still `pending`: an `approved`/`denied` decision only before
   * `expiresAt` (`now` is earlier), an `expired` one only from `expiresAt` on. Returns the
   * record afterwards and whether this call settled it.
   */
  decide(id: string, decision: ApprovalDecision, now: number): Promise<ApprovalDecideResult>;
}

/** Injection token for {@link ApprovalStore} (the interface and the token share a name). @publicApi */
export const ApprovalStore = Symbol('ApprovalStore');
