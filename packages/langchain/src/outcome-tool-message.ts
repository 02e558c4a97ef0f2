import { type ToolOutcome } from '@toolshield/core';
import { outcomeContent } from '@toolshield/core/internal';
import { ToolMessage } from '@langchain/core/messages';

/**
 * The `ToolMessage` for an outcome: the model-facing text as content (a failure as
 * toolshield's short failure text), `status: 'error'` for a failure, and the structured
 * `ToolResult` / `ToolFailure` as the artifact, which the model never sees.
 *
 * @publicApi
 */
export function outcomeToolMessage(outcome: ToolOutcome, toolCallId: string): ToolMessage {
  return new ToolMessage({
    content: outcomeContent(outcome),
    tool_call_id: toolCallId,
    name: outcome.tool,
    status: outcome.success ? 'success' : 'error',
    artifact: outcome,
  });
}
