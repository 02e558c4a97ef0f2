import { Inject, Injectable } from '@nestjs/common';
import {
  type Clock,
  type ToolCallRequest,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
import {
  ApprovalNotPendingError,
  ApprovalStore,
  type ApprovalListFilter,
  type ApprovalRecord,
  type ApprovalResolution,
} from '@toolshield/core/approvals';
import { approvalFailureWith } from '@toolshield/core/internal';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import { ToolFailureFactory } from '../execution/tool-failure.factory.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import type { ApprovedCall } from './tool-approval-options.interface.js';

/** Runs the approved call (the executor's `execute`). @internal */
export type RunApprovedCall = (
  request: ToolCallRequest,
  options: {
    readonly conversationId?: string;
    readonly idempotencyKey: string;
    readonly metadata?: Readonly<Record<string, unknown>>;
    readonly approved: ApprovedCall;
  },
) => Promise<ToolOutcome>;

/**
 * An approval that expired unanswered, and the failure its call ends in.
 *
 * @publicApi
 */
export interface ExpiredApproval {
  readonly approval: ApprovalRecord;
  readonly outcome: ToolFailure;
}

/**
 * Decides approval requests: runs an approved call once, ends a declined or expired one in its
 * own failure, and reports each on the event stream. The store's atomic `decide` makes the
 * first decision the only one, across processes.
 *
 * @internal
 */
@Injectable()
export class ToolApprovals {
  constructor(
    @Inject(ApprovalStore) private readonly store: ApprovalStore,
    private readonly events: ToolEventBus,
    private readonly failures: ToolFailureFactory,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
  ) {}

  async resolve(
    id: string,
    resolution: ApprovalResolution,
    run: RunApprovedCall,
  ): Promise<ToolOutcome> {
    const now = this.clock.now();
    const stored = await this.store.get(id);
    if (stored?.status === 'pending' && now >= stored.expiresAt) {
      const expired = await this.expire(stored, now);
      throw new ApprovalNotPendingError(id, expired?.approval ?? stored, now);
    }
    const reason =
      resolution.reason === undefined ? undefined : this.failures.sanitizer.text(resolution.reason);
    const status = resolution.approved ? 'approved' : 'denied';
    const decision = {
      status,
      ...(reason === undefined ? {} : { reason }),
      ...(resolution.by === undefined ? {} : { by: resolution.by }),
      at: now,
    } as const;
    const { record, won } = await this.store.decide(id, decision, now);
    if (!won || record === undefined) throw new ApprovalNotPendingError(id, record, now);
    this.report(`approval.${status}`, record, { by: resolution.by, reason });
    if (!resolution.approved) {
      return approvalFailureWith('denied', record, { reason, sanitizer: this.failures.sanitizer });
    }
    return run(
      {
        id: record.callId,
        name: record.tool,
        // as JSON, like a model's arguments: whatever store kept them, they are parsed afresh
        arguments: JSON.stringify(record.args ?? {}),
      },
      {
        ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }),
        idempotencyKey: record.idempotencyKey,
        ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
        approved: {
          ...(resolution.by === undefined ? {} : { by: resolution.by }),
          ...(reason === undefined ? {} : { reason }),
        },
      },
    );
  }

  /** The requests still waiting (not yet expired), oldest first. */
  async pending(
    filter: Omit<ApprovalListFilter, 'status'> = {},
  ): Promise<readonly ApprovalRecord[]> {
    const now = this.clock.now();
    const records = await this.store.list({ ...filter, status: 'pending' });
    return records.filter((record) => record.expiresAt > now);
  }

  /** Settles every request past its time as expired; returns those this call settled. */
  async expireDue(): Promise<readonly ExpiredApproval[]> {
    const now = this.clock.now();
    const due = (await this.store.list({ status: 'pending' })).filter(
      (record) => record.expiresAt <= now,
    );
    const settled = await Promise.all(due.map((record) => this.expire(record, now)));
    return settled.filter((expired): expired is ExpiredApproval => expired !== undefined);
  }

  private async expire(record: ApprovalRecord, now: number): Promise<ExpiredApproval | undefined> {
    const { record: after, won } = await this.store.decide(
      record.id,
      { status: 'expired', at: now },
      now,
    );
    if (!won || after === undefined) return undefined;
    this.report('approval.expired', after, {});
    return {
      approval: after,
      outcome: approvalFailureWith('expired', after, { sanitizer: this.failures.sanitizer }),
    };
  }

  private report(
    type: 'approval.approved' | 'approval.denied' | 'approval.expired',
    record: ApprovalRecord,
    facts: { readonly by?: string; readonly reason?: string },
  ): void {
    const base = {
      at: this.clock.now(),
      callId: record.callId,
      tool: record.tool,
      approvalId: record.id,
      ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }),
    };
    if (type === 'approval.expired') {
      this.events.emit({ ...base, type });
      return;
    }
    this.events.emit({
      ...base,
      type,
      ...(facts.by === undefined ? {} : { by: facts.by }),
      ...(facts.reason === undefined ? {} : { reason: facts.reason }),
    });
  }
}
