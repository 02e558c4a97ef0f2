import type { ToolApprovalRef } from '../../approvals/approval-record.js';
import type { ToolFailure, ToolOutcome } from '../../results/index.js';
import type {
  AssistantMessage,
  ConversationMessage,
  ToolResultMessage,
} from '../conversation/conversation-message.js';
import type { ToolCallLedger } from '../ledger/tool-call-ledger.js';
import { toToolResultMessage, type ToolOutcomeRenderer } from '../outcomes/tool-result-message.js';
import type { LoopGuard } from '../guards/loop-guard.js';
import type { AgentRunResult, AwaitingApproval } from './agent-run-result.js';

/** An `approval_pending` failure that names its approval: the call waits for a person. */
export function isAwaitingApproval(
  outcome: ToolOutcome,
): outcome is ToolFailure & { readonly approval: ToolApprovalRef } {
  return !outcome.success && outcome.errorType === 'approval_pending' && !!outcome.approval;
}

/** The tool message that stands in for a waiting call's result until the decision. */
export function placeholderFor(
  call: { readonly id: string; readonly name: string },
  pending: ToolFailure & { readonly approval: ToolApprovalRef },
  render: ToolOutcomeRenderer,
): ToolResultMessage {
  return {
    ...toToolResultMessage(call, pending, render),
    awaitingApproval: { approval: pending.approval },
  };
}

/** The calls of the history still waiting for approval. */
export function awaitingIn(messages: readonly ConversationMessage[]): AwaitingApproval[] {
  return messages.flatMap((message) =>
    message.role === 'tool' && message.awaitingApproval
      ? [
          {
            callId: message.toolCallId,
            tool: message.name,
            approval: message.awaitingApproval.approval,
          },
        ]
      : [],
  );
}

/** Keeps the failures of a paused batch on its first placeholder, for the prompt after the decision. */
export function keepBatchFailures(
  ledger: ToolCallLedger,
  first: ToolResultMessage,
  failures: readonly ToolFailure[],
): void {
  const mark = first.awaitingApproval;
  if (mark === undefined || failures.length === 0) return;
  ledger.replaceToolResult({ ...first, awaitingApproval: { ...mark, batchFailures: failures } });
}

/** A paused batch picked up again: its assistant turn, the decisions, and the failures kept. */
export interface ResumedTurn {
  readonly assistant: AssistantMessage;
  readonly decided: readonly ToolOutcome[];
  readonly batchFailures: readonly ToolFailure[];
}

/**
 * Puts each decision's outcome in place of its call's placeholder (outcomes of calls that do
 * not wait are ignored: a decision delivered twice changes nothing). Returns the turn the
 * decisions belong to, or `undefined` when none applied.
 */
export function applyDecisions(
  ledger: ToolCallLedger,
  outcomes: readonly ToolOutcome[],
  render: ToolOutcomeRenderer,
): ResumedTurn | undefined {
  const decided: ToolOutcome[] = [];
  const batchFailures: ToolFailure[] = [];
  for (const outcome of outcomes) {
    const placeholder = ledger.messages.find(
      (message): message is ToolResultMessage =>
        message.role === 'tool' &&
        message.toolCallId === outcome.callId &&
        !!message.awaitingApproval,
    );
    if (placeholder === undefined) continue;
    ledger.replaceToolResult(
      toToolResultMessage({ id: outcome.callId, name: placeholder.name }, outcome, render),
    );
    batchFailures.push(...(placeholder.awaitingApproval?.batchFailures ?? []));
    decided.push(outcome);
  }
  const [first] = decided;
  if (first === undefined) return undefined;
  const assistant = ledger.messages.find(
    (message): message is AssistantMessage =>
      message.role === 'assistant' && !!message.toolCalls?.some((call) => call.id === first.callId),
  );
  return assistant && { assistant, decided, batchFailures };
}

/** What a turn left for the loop to act on (the runner's view of a batch). */
export interface TurnFacts {
  readonly failures: readonly ToolFailure[];
  readonly terminatedBy?: { readonly tool: string; readonly answer: string };
}

/**
 * The turn a decision completes: the guard hears the decided calls; its failures are those kept
 * from before the pause and the decisions'; a terminating call of the batch that succeeded ends it.
 */
export function resumedTurn(
  resumed: ResumedTurn,
  messages: readonly ConversationMessage[],
  guard: LoopGuard,
  terminatingTools: readonly string[],
): TurnFacts {
  const calls = resumed.assistant.toolCalls ?? [];
  for (const outcome of resumed.decided) {
    const call = calls.find((each) => each.id === outcome.callId);
    if (call) guard.record(call, outcome);
  }
  const decidedFailures = resumed.decided.flatMap((outcome) => (outcome.success ? [] : [outcome]));
  const terminatedBy = terminatedIn(resumed, messages, (name) => terminatingTools.includes(name));
  return {
    failures: [...resumed.batchFailures, ...decidedFailures],
    ...(terminatedBy ? { terminatedBy } : {}),
  };
}

/** The result of a run that waits for approval. */
export function suspendedResult(
  messages: readonly ConversationMessage[],
  steps: number,
): AgentRunResult {
  const awaitingApproval = awaitingIn(messages);
  return {
    status: 'awaiting_approval',
    reason: {
      code: 'awaiting_approval',
      message: `${awaitingApproval.length} call(s) wait for a person's approval.`,
    },
    finalAnswer: '',
    steps,
    messages: [...messages],
    awaitingApproval,
  };
}

/** The terminating call of a resumed turn that succeeded, with the answer it gave. */
function terminatedIn(
  turn: ResumedTurn,
  messages: readonly ConversationMessage[],
  isTerminating: (name: string) => boolean,
): { readonly tool: string; readonly answer: string } | undefined {
  for (const call of turn.assistant.toolCalls ?? []) {
    if (!isTerminating(call.name)) continue;
    const result = messages.find(
      (message): message is ToolResultMessage =>
        message.role === 'tool' && message.toolCallId === call.id,
    );
    if (result && !result.isError && !result.awaitingApproval)
      return { tool: call.name, answer: result.content || turn.assistant.content };
  }
  return undefined;
}
