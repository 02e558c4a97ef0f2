import type { ToolApprovalRef } from '../../approvals/approval-record.js';
import type { ConversationMessage } from '../conversation/conversation-message.js';
import type { LoopGuardCode } from '../guards/loop-guard.js';

/**
 * Why a run ended. `answered`: the model replied without tool calls. `terminating_tool`: a
 * terminating tool (`complete`, `ask`, ...) succeeded. Guard codes: a `LoopGuard` limit.
 * `aborted`: the caller's signal. `model_error`: the model threw. `internal_error`: anything
 * else (a store that failed, for one). `awaiting_approval`: a call of the last batch waits for a
 * person's approval.
 *
 * @publicApi
 */
export type AgentStopCode =
  | 'answered'
  | 'terminating_tool'
  | LoopGuardCode
  | 'aborted'
  | 'model_error'
  | 'internal_error'
  | 'awaiting_approval';

/** @publicApi */
export interface AgentStopReason {
  readonly code: AgentStopCode;
  readonly message: string;
  /** The terminating tool, for `terminating_tool`. */
  readonly tool?: string;
}

/**
 * A call the run waits for: its approval, to show a person and resolve.
 *
 * @publicApi
 */
export interface AwaitingApproval {
  readonly callId: string;
  readonly tool: string;
  readonly approval: ToolApprovalRef;
}

/**
 * How a run ended: `completed` (answered, or a terminating tool succeeded), `stopped` (a
 * guard or an abort ended it, with a graceful final answer), `error` (the model or the store
 * failed), `awaiting_approval` (suspended until the calls in `awaitingApproval` are decided:
 * run it again with their outcomes in `approvalOutcomes`; its state is in the ledger store).
 *
 * @publicApi
 */
export interface AgentRunResult {
  readonly status: 'completed' | 'stopped' | 'error' | 'awaiting_approval';
  readonly reason: AgentStopReason;
  /** What to show the user. */
  readonly finalAnswer: string;
  /** Model requests made in this run. */
  readonly steps: number;
  /** The whole conversation, as saved. */
  readonly messages: readonly ConversationMessage[];
  /** The calls waiting for approval (`awaiting_approval`). */
  readonly awaitingApproval?: readonly AwaitingApproval[];
}
