import type { ApprovalDecision, ApprovalRecord } from './approval-record.js';

/**
 * The rule every {@link ApprovalStore.decide} applies, as a pure function for stores to reuse:
 * a `pending` record takes an `approved`/`denied` decision while `now < expiresAt`, and an
 * `expired` one once `now >= expiresAt`; anything else leaves it as it is. Returns the record
 * settled, or `undefined` when the decision loses.
 *
 * @publicApi
 */
export function settleApproval(
  record: ApprovalRecord,
  decision: ApprovalDecision,
  now: number,
): ApprovalRecord | undefined {
  if (record.status !== 'pending') return undefined;
  const overdue = now >= record.expiresAt;
  if ((decision.status === 'expired') !== overdue) return undefined;
  return { ...record, status: decision.status, decision };
}
