import type { ToolOutcome } from '../../results/index.js';

/** @publicApi */
export interface AgentRunRequest {
  /** Runs continue the conversation saved under this id, repaired first. */
  readonly conversationId: string;
  /** The user's message; leave it out to resume a conversation as it is. */
  readonly input?: string;
  /**
   * Aborting it skips the calls not yet started and stops the run before the next step. The
   * calls it cut or skipped get no result of their own: the repair answers them as it answers
   * calls a crash interrupted (safe to repeat for `safeToRepeat` tools, else outcome unknown),
   * so a run stopped to be resumed elsewhere is never told less than one that crashed.
   */
  readonly signal?: AbortSignal;
  /**
   * The outcomes of calls the run waited for (what `ToolExecutor.resolveApproval` returned,
   * or the failure `expireApprovals` gave): each takes its call's place, and the run goes on
   * where it stopped. A run still waiting for others stays `awaiting_approval`.
   */
  readonly approvalOutcomes?: readonly ToolOutcome[];
}
