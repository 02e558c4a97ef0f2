import type { ToolExecutionContext } from '@mastra/core/tools';

/**
 * The `conversationId` option of the Mastra adapters: a string, or a function of each call's
 * Mastra execution context (its `agent.threadId`, `workflow.runId`, `requestContext`, ...).
 *
 * @publicApi
 */
export type MastraConversationOption =
  string | ((context: ToolExecutionContext) => string | undefined);

/**
 * The conversation a call belongs to: the option when given, else the agent's memory thread,
 * else the workflow run the call is part of (models number their calls per conversation).
 *
 * @internal
 */
export function conversationOf(
  option: MastraConversationOption | undefined,
  context: ToolExecutionContext | undefined,
): string | undefined {
  if (typeof option === 'string') return option;
  if (context === undefined) return undefined;
  if (option !== undefined) return option(context);
  return context.agent?.threadId ?? context.workflow?.runId;
}

/** The model's id of the call, when an agent made it. @internal */
export function toolCallIdOf(context: ToolExecutionContext | undefined): string | undefined {
  return context?.agent?.toolCallId || undefined;
}
