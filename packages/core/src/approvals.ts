/**
 * @toolshield/core/approvals: where calls that wait for a person's approval are kept - the
 * `ApprovalStore` interface (one atomic `decide`), the in-memory store, `settleApproval` (the
 * rule of `decide`, for a store of your own), the records, and `approvalFailure` (what the
 * model reads of a call that was not approved, for an app that decides approvals itself).
 *
 * @packageDocumentation
 */
export {
  ApprovalStore,
  InMemoryApprovalStore,
  settleApproval,
  ApprovalNotPendingError,
  approvalFailure,
  type ApprovalFailureKind,
  type ApprovalFailureOptions,
  type ApprovalRecord,
  type ApprovalResolution,
  type ApprovalStatus,
  type ApprovalDecision,
  type ApprovalDecideResult,
  type ApprovalListFilter,
  type ApprovalNotPendingReason,
} from './approvals/index.js';
/** The types `approvalFailure` answers in, also exported from the root. */
export type {
  ToolFailure,
  ToolApprovalRef,
  ToolErrorType,
  ToolCallMetadata,
  ValidationIssue,
} from './index.js';
