import type { ToolApprovalRef } from '../../approvals/approval-record.js';
import type { ToolFailure } from '../../results/tool-outcome.js';

/**
 * A tool call inside an assistant message, as the model emitted it.
 *
 * @publicApi
 */
export interface ConversationToolCall {
  /** The provider's call id; unique within the conversation. */
  readonly id: string;
  /** The tool the model asked for. */
  readonly name: string;
  /** The model's JSON argument string, or an already parsed object. */
  readonly arguments?: string | Readonly<Record<string, unknown>> | null;
}

/** Instructions for the model (a top-level `system` parameter for Anthropic). @publicApi */
export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** What the user (or the agent loop speaking for it) says. @publicApi */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

/** A model turn: text, tool calls, or both. @publicApi */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls?: readonly ConversationToolCall[];
}

/**
 * Marks the tool message of a call that waits for a person's approval: it stands in for the
 * result until the decision's outcome replaces it (`AgentRunner` never sends it to a model).
 *
 * @publicApi
 */
export interface AwaitingApprovalMark {
  readonly approval: ToolApprovalRef;
  /** The failures of the other calls of the same batch, for the decision prompt that follows the decision. */
  readonly batchFailures?: readonly ToolFailure[];
}

/** The answer to exactly one tool call of an earlier assistant message. @publicApi */
export interface ToolResultMessage {
  readonly role: 'tool';
  /** The `id` of the `ConversationToolCall` this message answers. */
  readonly toolCallId: string;
  /** The name of the tool that was called. */
  readonly name: string;
  /** What the model reads: the tool's output or its rendered failure. */
  readonly content: string;
  /** True when the call failed (Anthropic `is_error`). */
  readonly isError: boolean;
  /** Present while the call waits for approval: this message is a placeholder. */
  readonly awaitingApproval?: AwaitingApprovalMark;
}

/**
 * One message of a provider-neutral conversation. Convert with `toOpenAIMessages` or
 * `toAnthropicMessages` before sending it to a model.
 *
 * @publicApi
 */
export type ConversationMessage =
  SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;
