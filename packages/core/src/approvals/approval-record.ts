/**
 * Where an approval stands: `pending` until a person decides (`approved`, `denied`) or its
 * time runs out (`expired`).
 *
 * @publicApi
 */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

/**
 * A person's answer to an approval request, as `resolveApproval` takes it.
 *
 * @publicApi
 */
export interface ApprovalResolution {
  readonly approved: boolean;
  /** Why; a denial's reason is what the model reads. */
  readonly reason?: string;
  /** Who decided (a user id, an email): kept on the record and in the events. */
  readonly by?: string;
}

/**
 * How an approval was settled, as a store records it: a person's decision, or its expiry.
 *
 * @publicApi
 */
export interface ApprovalDecision {
  readonly status: 'approved' | 'denied' | 'expired';
  readonly reason?: string;
  readonly by?: string;
  /** When it was settled, in ms since the epoch. */
  readonly at: number;
}

/**
 * What a failure and an event say about the approval a call waits for (or waited for):
 * enough to show it to a person and to resolve it.
 *
 * @publicApi
 */
export interface ToolApprovalRef {
  /** Pass it to `resolveApproval`. */
  readonly id: string;
  /** When it expires unanswered, in ms since the epoch. */
  readonly expiresAt: number;
  /** The call's validated arguments, redacted like failures are: safe to show. */
  readonly args: unknown;
  /** The call's idempotency key: the approved call runs with it. */
  readonly idempotencyKey: string;
}

/**
 * A stored approval request: the call that waits (its validated arguments, unredacted, to run
 * it when approved), what a person is shown, and how it was settled.
 *
 * @publicApi
 */
export interface ApprovalRecord {
  readonly id: string;
  /** The registered tool name. */
  readonly tool: string;
  /** The call id the model gave the call. */
  readonly callId: string;
  /** The validated arguments, unredacted: what the approved call runs with. Keep them private. */
  readonly args: unknown;
  /** The same arguments redacted like failures are: what a person and the model are shown. */
  readonly shownArgs: unknown;
  readonly idempotencyKey: string;
  /** The conversation (agent run) the call belongs to, when the caller named one. */
  readonly conversationId?: string;
  /** What the caller attached to the call (tenant, user), passed on to the approved call. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** When it was requested, in ms since the epoch. */
  readonly requestedAt: number;
  /** When it expires unanswered, in ms since the epoch. */
  readonly expiresAt: number;
  /**
   * As stored: a `pending` record past `expiresAt` is expired for every purpose (a decision
   * on it loses) even before anything settles it as `expired`.
   */
  readonly status: ApprovalStatus;
  /** How it was settled; absent while pending. */
  readonly decision?: ApprovalDecision;
}

/** The reference to show for a record. @publicApi */
export function approvalRefOf(record: ApprovalRecord): ToolApprovalRef {
  return {
    id: record.id,
    expiresAt: record.expiresAt,
    args: record.shownArgs,
    idempotencyKey: record.idempotencyKey,
  };
}
