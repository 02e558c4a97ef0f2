import type { ApprovalRecord } from './approval-record.js';

/** Why a decision was refused. @publicApi */
export type ApprovalNotPendingReason = 'unknown' | 'decided' | 'expired';

/**
 * Thrown by `resolveApproval` when there is nothing to decide: an unknown id, an approval a
 * person decided already (the call ran, or was declined, once), or one that expired.
 *
 * @publicApi
 */
export class ApprovalNotPendingError extends Error {
  readonly approvalId: string;
  readonly reason: ApprovalNotPendingReason;
  /** The record as it stands, when the id is known. */
  readonly record?: ApprovalRecord;

  constructor(approvalId: string, record: ApprovalRecord | undefined, now: number) {
    const reason = reasonOf(record, now);
    super(messageOf(approvalId, reason, record));
    this.name = 'ApprovalNotPendingError';
    this.approvalId = approvalId;
    this.reason = reason;
    this.record = record;
  }
}

function reasonOf(record: ApprovalRecord | undefined, now: number): ApprovalNotPendingReason {
  if (record === undefined) return 'unknown';
  if (record.status === 'expired' || (record.status === 'pending' && now >= record.expiresAt))
    return 'expired';
  return 'decided';
}

function messageOf(
  id: string,
  reason: ApprovalNotPendingReason,
  record: ApprovalRecord | undefined,
): string {
  if (reason === 'unknown' || record === undefined) return `No approval has the id ${id}.`;
  if (reason === 'expired')
    return `Approval ${id} (${record.tool}) expired at ${new Date(record.expiresAt).toISOString()}; nobody can decide it now.`;
  const decision = record.decision;
  const by = decision?.by === undefined ? '' : ` by ${decision.by}`;
  const at = decision === undefined ? '' : ` at ${new Date(decision.at).toISOString()}`;
  return `Approval ${id} (${record.tool}) was ${record.status} already${by}${at}; it is decided once.`;
}
