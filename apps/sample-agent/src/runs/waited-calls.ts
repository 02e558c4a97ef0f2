import { renderToolOutcomeContent, type ToolOutcome } from '@toolshield/core';
import type { ConversationMessage } from '@toolshield/core/agent';
import {
  approvalFailure,
  type ApprovalRecord,
  type ApprovalStore,
} from '@toolshield/core/approvals';
import type { RunEventHub } from './run-event-hub.js';
import type { RunStore } from './run-store.js';
import type { RunCallExecutor } from './run-tool-calls.js';

/** The approvals the run's history waits for: its placeholders' (the runner's pause). */
function waitedApprovalIds(messages: readonly ConversationMessage[]): string[] {
  return messages.flatMap((message) =>
    message.role === 'tool' && message.awaitingApproval
      ? [message.awaitingApproval.approval.id]
      : [],
  );
}

/** A `pending` record whose time ran out is settled as `expired` (one instance wins). */
async function settledRecord(
  approvals: ApprovalStore,
  record: ApprovalRecord,
  now: number,
): Promise<ApprovalRecord> {
  if (record.status !== 'pending' || now < record.expiresAt) return record;
  const { record: settled } = await approvals.decide(
    record.id,
    { status: 'expired', at: now },
    now,
  );
  return settled ?? record;
}

/** What a run needs to settle the calls it waited for. */
export interface WaitedCallsContext {
  readonly runId: string;
  readonly store: RunStore;
  readonly hub: RunEventHub;
  /** The run's executor: an approved call goes through it, with the key it waited with. */
  readonly execute: RunCallExecutor;
}

/**
 * Before a run that waited for approval goes on: the outcome of each call it waited for that
 * a person decided (or that expired), for the runner's `approvalOutcomes`, and the decision's
 * event (`approval.approved`, `approval.denied`, `approval.expired`) on the run's stream. An
 * approved call is made here, once, through the whole pipeline under the idempotency key it
 * waited with (a worker that dies during it leaves its repeat the same key); a declined or
 * expired one ends in its own failure, whose text the model reads. Calls still undecided
 * keep waiting (the runner stays `awaiting_approval`).
 */
export async function decidedOutcomes(context: WaitedCallsContext): Promise<ToolOutcome[]> {
  const { runId, store } = context;
  const ids = waitedApprovalIds((await store.load(runId)) ?? []);
  if (ids.length === 0) return [];
  const now = Date.now();
  const records = await Promise.all(
    ids.map(async (id) => {
      const record = await store.approvals.get(id);
      return record && settledRecord(store.approvals, record, now);
    }),
  );
  const outcomes: ToolOutcome[] = [];
  for (const record of records) {
    if (record && record.status !== 'pending') outcomes.push(await outcomeOf(record, context));
  }
  return outcomes;
}

async function outcomeOf(
  record: ApprovalRecord,
  { runId, hub, execute }: WaitedCallsContext,
): Promise<ToolOutcome> {
  const decision = record.decision;
  const base = {
    at: decision?.at ?? Date.now(),
    callId: record.callId,
    tool: record.tool,
    approvalId: record.id,
    conversationId: runId,
  };
  const said = {
    ...(decision?.by === undefined ? {} : { by: decision.by }),
    ...(decision?.reason === undefined ? {} : { reason: decision.reason }),
  };
  if (record.status === 'approved') {
    hub.emit(runId, { type: 'approval.approved', ...base, ...said });
    return execute(
      // As the model gave them: JSON, which the pipeline parses and validates again.
      { id: record.callId, name: record.tool, arguments: JSON.stringify(record.args ?? {}) },
      { conversationId: runId, approved: said, idempotencyKey: record.idempotencyKey },
    );
  }
  const outcome =
    record.status === 'denied'
      ? approvalFailure('denied', record, { reason: decision?.reason })
      : approvalFailure('expired', record);
  hub.emit(
    runId,
    record.status === 'denied'
      ? { type: 'approval.denied', ...base, ...said }
      : { type: 'approval.expired', ...base },
  );
  hub.emit(runId, {
    type: 'tool.result',
    callId: record.callId,
    tool: record.tool,
    isError: true,
    content: renderToolOutcomeContent(outcome),
  });
  return outcome;
}
