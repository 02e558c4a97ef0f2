/**
 * What a provider would reject a conversation for (HTTP 400 `invalid_request_error`).
 *
 * - `unanswered_tool_call`: a tool call has no result where the provider expects it.
 * - `orphan_tool_result`: a result answers no tool call of the message it must follow.
 * - `duplicate_tool_result`: a tool call is answered more than once.
 * - `duplicate_tool_call_id`: two tool calls share an id.
 * - `tool_result_not_first`: (Anthropic) text precedes `tool_result` blocks in a user message.
 * - `misplaced_block`: (Anthropic) `tool_use` outside an assistant turn, or `tool_result`
 *   outside a user turn.
 * - `invalid_tool_call_id`: (Anthropic) a `tool_use` id or `tool_result` `tool_use_id` that
 *   does not match `^[a-zA-Z0-9_-]+$`.
 * - `roles_not_alternating`: (Anthropic) two consecutive messages share a role.
 * - `empty_message`: a message with nothing in it.
 *
 * @publicApi
 */
export type HistoryViolationCode =
  | 'unanswered_tool_call'
  | 'orphan_tool_result'
  | 'duplicate_tool_result'
  | 'duplicate_tool_call_id'
  | 'tool_result_not_first'
  | 'misplaced_block'
  | 'invalid_tool_call_id'
  | 'roles_not_alternating'
  | 'empty_message';

/** One rule a provider-format history breaks. @publicApi */
export interface HistoryViolation {
  readonly code: HistoryViolationCode;
  /** Index of the offending message in the provider-format array. */
  readonly index: number;
  /** The tool call id concerned, when there is one. */
  readonly toolCallId?: string;
  /** One sentence, for logs and test output. */
  readonly message: string;
}
