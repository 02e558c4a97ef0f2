import type { ApprovalRecord, ApprovalStatus, ApprovalStore } from '@toolshield/core/approvals';
import { InvalidApprovalRequestError } from './run-errors.js';

/** A call waiting for (or settled by) a person, as `GET /api/approvals` shows it. */
export interface ApprovalView {
  readonly id: string;
  /** The run the call belongs to. */
  readonly runId?: string;
  readonly tool: string;
  readonly callId: string;
  /** The call's arguments, redacted like failures are (never the raw ones). */
  readonly args: unknown;
  /** `pending` until decided; a pending approval past `expiresAt` reads `expired`. */
  readonly status: ApprovalStatus;
  /** ISO timestamps. */
  readonly requestedAt: string;
  readonly expiresAt: string;
  readonly decision?: { readonly by?: string; readonly reason?: string; readonly at: string };
}

/** What `?status=` may ask for; default `pending`. */
const STATUSES = ['pending', 'approved', 'denied', 'expired', 'all'] as const;

/** A status filter of `GET /api/approvals`. */
export type ApprovalStatusFilter = (typeof STATUSES)[number];

/** What a person sends to `POST /api/approvals/:id`. */
export interface ApprovalAnswer {
  readonly approved: boolean;
  readonly reason?: string;
  readonly by?: string;
}

/** The longest `reason` a decision takes, in characters. */
export const MAX_REASON_LENGTH = 1_000;

/** The status an approval has now: a pending one past its expiry is expired. */
function statusAt(record: ApprovalRecord, now: number): ApprovalStatus {
  return record.status === 'pending' && now >= record.expiresAt ? 'expired' : record.status;
}

/** The record as the API shows it, at `now`. */
export function approvalView(record: ApprovalRecord, now: number): ApprovalView {
  const decision = record.decision;
  return {
    id: record.id,
    ...(record.conversationId === undefined ? {} : { runId: record.conversationId }),
    tool: record.tool,
    callId: record.callId,
    args: record.shownArgs,
    status: statusAt(record, now),
    requestedAt: new Date(record.requestedAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
    ...(decision && decision.status !== 'expired'
      ? {
          decision: {
            ...(decision.by === undefined ? {} : { by: decision.by }),
            ...(decision.reason === undefined ? {} : { reason: decision.reason }),
            at: new Date(decision.at).toISOString(),
          },
        }
      : {}),
  };
}

/** `?status=` checked: one of {@link STATUSES}, default `pending`; a 400 otherwise. */
export function parseStatusFilter(value: unknown): ApprovalStatusFilter {
  if (value === undefined || value === '') return 'pending';
  const known = STATUSES.find((status) => status === value);
  if (known) return known;
  throw new InvalidApprovalRequestError(
    `"status" must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(value)}.`,
  );
}

/** The approvals with `status` now (of one run, with `runId`), oldest first. */
export async function listApprovals(
  store: ApprovalStore,
  status: ApprovalStatusFilter,
  runId: string | undefined,
  now: number,
): Promise<ApprovalView[]> {
  const stored = status === 'all' || status === 'expired' ? undefined : status;
  const records = await store.list({
    ...(stored === undefined ? {} : { status: stored }),
    ...(runId === undefined ? {} : { conversationId: runId }),
  });
  return records
    .map((record) => approvalView(record, now))
    .filter((view) => status === 'all' || view.status === status);
}

function optionalText(body: Record<string, unknown>, name: string, max: number) {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) {
    throw new InvalidApprovalRequestError(
      `"${name}" must be a string of at most ${max} characters.`,
    );
  }
  return value.trim() === '' ? undefined : value.trim();
}

/** `{ "decision": "approve" | "deny", "reason"?, "by"? }` checked; a 400 naming what is wrong. */
export function parseApprovalAnswer(body: unknown): ApprovalAnswer {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const decision = fields['decision'];
  if (decision !== 'approve' && decision !== 'deny') {
    throw new InvalidApprovalRequestError(
      `"decision" must be "approve" or "deny", got ${JSON.stringify(decision ?? null)}.`,
    );
  }
  const reason = optionalText(fields, 'reason', MAX_REASON_LENGTH);
  const by = optionalText(fields, 'by', 200);
  return {
    approved: decision === 'approve',
    ...(reason === undefined ? {} : { reason }),
    ...(by === undefined ? {} : { by }),
  };
}
