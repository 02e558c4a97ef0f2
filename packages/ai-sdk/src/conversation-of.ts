import type { ToolExecutionOptions } from 'ai';

/** The `conversationId` option of the AI SDK adapters: a string, or a function of each call's execution options. @publicApi */
export type AiSdkConversationOption =
  string | ((execution: ToolExecutionOptions<unknown>) => string | undefined);

/** The conversation a call belongs to, by the adapter's `conversationId` option. @internal */
export function conversationOf(
  conversationId: AiSdkConversationOption | undefined,
  execution: ToolExecutionOptions<unknown>,
): string | undefined {
  return typeof conversationId === 'function' ? conversationId(execution) : conversationId;
}
