/**
 * @toolshield/core/approvals: where calls that wait for a person's approval are kept - the
 * `ApprovalStore` interface (one atomic `decide`), the in-memory store, `settleApproval` (the
 * rule of `decide`, for a store of your own) and the records.
 *
 * @packageDocumentation
 */
export {
  ApprovalStore,
  InMemoryApprovalStore,
  settleApproval,
  ApprovalNotPendingError,
  type ApprovalRecord,
  type ApprovalResolution,
  type ApprovalStatus,
  type ApprovalDecision,
  type ApprovalDecideResult,
  type ApprovalListFilter,
  type ApprovalNotPendingReason,
} from './approvals/index.js';
