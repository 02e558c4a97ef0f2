import type { ToolCall } from '@langchain/core/messages/tool';
import type { ToolRunnableConfig } from '@langchain/core/tools';

/**
 * The id of the tool call a tool is serving: the call's own when invoked with one (as
 * `ToolNode` does), else the one agents put in the config.
 */
export function toolCallIdOf(
  config: ToolRunnableConfig | undefined,
  input?: unknown,
): string | undefined {
  return isToolCall(input) ? input.id : config?.toolCall?.id;
}

/** LangGraph's thread (`config.configurable.thread_id`), the conversation a call belongs to. */
export function threadIdOf(config: ToolRunnableConfig | undefined): string | undefined {
  const threadId: unknown = config?.configurable?.['thread_id'];
  return typeof threadId === 'string' || typeof threadId === 'number'
    ? String(threadId)
    : undefined;
}

/** The arguments of an invocation: a tool call's, or the bare input. */
export function argumentsOf(
  input: unknown,
): Readonly<Record<string, unknown>> | string | null | undefined {
  if (isToolCall(input)) return input.args;
  return typeof input === 'string' || (typeof input === 'object' && input !== null)
    ? (input as Readonly<Record<string, unknown>> | string)
    : undefined;
}

function isToolCall(input: unknown): input is ToolCall {
  return (
    typeof input === 'object' &&
    input !== null &&
    (input as { type?: unknown }).type === 'tool_call'
  );
}
