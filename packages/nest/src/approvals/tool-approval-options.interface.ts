import type { ToolApprovalPolicy } from '@toolshield/core';
import type { ApprovalStore } from '@toolshield/core/approvals';

/**
 * Whether a call of a tool needs a person's approval before it runs: `true` for every call,
 * or a function of the call's validated arguments (and its context) for some of them.
 *
 * @example
 * needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000
 * @publicApi
 */
export type NeedsApproval<TArgs = never> = ToolApprovalPolicy<TArgs>;

/**
 * `ToolShieldModule`'s `approvals` option: where approval requests wait, and for how long.
 *
 * @publicApi
 */
export interface ToolApprovalsOptions {
  /**
   * Where requests wait for a decision (default in memory, one process only). Use a shared
   * store (`RedisApprovalStore`, your database's) when a decision may reach another instance.
   * A provider under the `ApprovalStore` token wins over it.
   */
  readonly store?: ApprovalStore;
  /** How long a request waits before it expires, in ms; default 24 hours. */
  readonly ttlMs?: number;
}

/**
 * `ExecuteOptions.approved`: a person already approved this call in the framework's own pause
 * (the AI SDK's or Agents SDK's `needsApproval`, LangChain's human-in-the-loop middleware, MCP
 * elicitation), so toolshield does not ask again.
 *
 * @publicApi
 */
export interface ApprovedCall {
  /** Who approved it. */
  readonly by?: string;
  readonly reason?: string;
}

/** The default time an approval request waits: 24 hours. @publicApi */
export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
