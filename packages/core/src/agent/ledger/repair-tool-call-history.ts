import type {
  AssistantMessage,
  ConversationMessage,
  ConversationToolCall,
  ToolResultMessage,
} from '../conversation/conversation-message.js';
import { EFFECT_UNKNOWN_SUGGESTION } from '../../results/failure-suggestions.js';
import { synthesizeFailure } from '../outcomes/synthesize-failure.js';
import { toToolResultMessage, type ToolOutcomeRenderer } from '../outcomes/tool-result-message.js';

/** @publicApi */
export interface ToolCallRepairOptions {
  /** The sentence the model reads for a call that never got a result. */
  readonly reason?: string;
  /** Renders the synthesized failures; defaults to `renderToolOutcomeContent`. */
  readonly renderOutcome?: ToolOutcomeRenderer;
  /**
   * Whether calling this tool again with the same arguments is safe (it is idempotent): its
   * interrupted calls are answered as recoverable, with the advice to call again, instead of
   * an outcome the model must check first. Default: no tool is.
   */
  readonly safeToRepeat?: (toolName: string) => boolean;
}

/**
 * What `repair()` changed; every list holds tool call ids.
 *
 * @publicApi
 */
export interface ToolCallRepairReport {
  /** Calls without a result that got a synthesized `cancelled` failure (both kinds). */
  readonly synthesized: readonly string[];
  /** Results moved back right after the assistant message that made their call. */
  readonly reattached: readonly string[];
  /** Results dropped because no tool call in the conversation has their id. */
  readonly droppedOrphans: readonly string[];
  /** Second and later results for the same call, dropped (the first one is kept). */
  readonly droppedDuplicateResults: readonly string[];
  /** Tool calls dropped because an earlier call already used their id. */
  readonly droppedDuplicateCalls: readonly string[];
}

/** @publicApi */
export interface ToolCallRepairResult {
  readonly messages: ConversationMessage[];
  readonly report: ToolCallRepairReport;
}

/** Default sentence for a call whose result was never recorded: its outcome is unknown. @publicApi */
export const INTERRUPTED_CALL_REASON =
  'Interrupted before its result was recorded (crash, timeout or restart); it may or may not have taken effect.';

/** The sentence for an interrupted call of a tool that is safe to repeat. @publicApi */
export const INTERRUPTED_SAFE_CALL_REASON =
  'Interrupted before its result was recorded (crash, timeout or restart); the tool is safe to repeat, so calling it again with the same arguments is fine.';

/** The failure a call that never got a result is answered with. */
function interruptedFailure(call: ConversationToolCall, options: ToolCallRepairOptions) {
  const init = { tool: call.name, callId: call.id, errorType: 'cancelled' } as const;
  if (options.safeToRepeat?.(call.name)) {
    return synthesizeFailure({
      ...init,
      error: INTERRUPTED_SAFE_CALL_REASON,
      recoverable: true,
      suggestions: ['Call it again with the same arguments.'],
    });
  }
  return synthesizeFailure({
    ...init,
    error: options.reason ?? INTERRUPTED_CALL_REASON,
    effect: 'unknown',
    suggestions: [EFFECT_UNKNOWN_SUGGESTION],
  });
}

/** The index of the message a run of tool messages at `index` follows. */
function ownerOfRunAt(messages: readonly ConversationMessage[], index: number): number {
  let owner = index - 1;
  while (owner >= 0 && messages[owner].role === 'tool') owner -= 1;
  return owner;
}

/**
 * Rewrites a history into the shape both OpenAI and Anthropic accept: each assistant message
 * is followed right away by exactly one result per tool call, in call order. Calls without a
 * result get a synthesized `cancelled` failure (recoverable, advising to call again, for tools
 * `safeToRepeat` names; otherwise not recoverable, `effect: 'unknown'`); results away from
 * their call are moved back;
 * results for unknown ids and repeated results are dropped; a repeated call id is dropped
 * from the later assistant message. The input is not modified.
 *
 * @publicApi
 */
export function repairToolCallHistory(
  messages: readonly ConversationMessage[],
  options: ToolCallRepairOptions = {},
): ToolCallRepairResult {
  const callOwner = new Map<string, number>();
  const droppedDuplicateCalls: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    for (const call of message.toolCalls ?? []) {
      if (callOwner.has(call.id)) droppedDuplicateCalls.push(call.id);
      else callOwner.set(call.id, index);
    }
  });

  const results = new Map<string, ToolResultMessage>();
  const reattached: string[] = [];
  const droppedOrphans: string[] = [];
  const droppedDuplicateResults: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    const id = message.toolCallId;
    const owner = callOwner.get(id);
    if (owner === undefined) droppedOrphans.push(id);
    else if (results.has(id)) droppedDuplicateResults.push(id);
    else {
      results.set(id, message);
      if (ownerOfRunAt(messages, index) !== owner) reattached.push(id);
    }
  });

  const synthesized: string[] = [];
  const answer = (call: ConversationToolCall): ToolResultMessage => {
    const found = results.get(call.id);
    if (found) return found;
    synthesized.push(call.id);
    return toToolResultMessage(call, interruptedFailure(call, options), options.renderOutcome);
  };

  const repaired: ConversationMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') return;
    if (message.role !== 'assistant' || !message.toolCalls) {
      repaired.push(message);
      return;
    }
    const calls = message.toolCalls.filter(
      (call, position, all) =>
        callOwner.get(call.id) === index && all.findIndex((c) => c.id === call.id) === position,
    );
    if (calls.length === message.toolCalls.length) repaired.push(message);
    else if (calls.length > 0) repaired.push({ ...message, toolCalls: calls });
    else if (message.content !== '') repaired.push(withoutToolCalls(message));
    repaired.push(...calls.map(answer));
  });

  return {
    messages: repaired,
    report: {
      synthesized,
      reattached,
      droppedOrphans,
      droppedDuplicateResults,
      droppedDuplicateCalls,
    },
  };
}

function withoutToolCalls(message: AssistantMessage): AssistantMessage {
  return { role: 'assistant', content: message.content };
}
