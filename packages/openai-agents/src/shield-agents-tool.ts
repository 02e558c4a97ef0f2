import { renderFailureText, shieldTool, type ShieldOptions } from '@toolshield/core';
import type { FunctionTool, RunContext, ToolInputParameters } from '@openai/agents';
import type { AgentsToolsOptions } from './to-agents-tools.js';

/**
 * Shield options; the name defaults to the tool's. `conversationId` (a function of the run's
 * context) scopes each call's idempotency key as `<conversationId>:<callId>`, as in
 * `toAgentsTools` (without it each call's key is unique to it); `onOutcome` gets each call's
 * `ToolResult` or `ToolFailure` (a failure's `metadata.idempotencyKey` included).
 *
 * @publicApi
 */
export type AgentsShieldOptions = Omit<ShieldOptions, 'name'> &
  Pick<AgentsToolsOptions, 'conversationId' | 'onOutcome'> & { readonly name?: string };

type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

/**
 * Puts an Agents SDK function tool behind toolshield's policies, on `@toolshield/core` alone:
 * its `invoke` runs with a per-attempt timeout whose signal reaches the tool, its own circuit
 * breaker, retries only when you mark it `idempotent` (`retry` tunes them, and is refused on a
 * tool not marked so), an optional bulkhead, and classification of what it threw. On success the model reads the tool's own result; on
 * failure it reads toolshield's short failure text, returned as the tool's output (never
 * thrown, so the run goes on).
 *
 * The SDK turns what a `tool()`'s `execute` throws into a generic message before `invoke`
 * returns, unless the tool was made with `errorFunction: null`: make it so, and the shield sees
 * (classifies, retries, counts in the breaker) the real error. Its timeouts, abort and bulkhead
 * apply either way.
 *
 * @example
 * const search = shieldAgentsTool(
 *   tool({ name: 'search', description: 'Web search.', parameters: SearchArgs, errorFunction: null, execute: searchWeb }),
 *   { idempotent: true, timeoutMs: 10_000 },
 * );
 * const agent = new Agent({ name: 'Researcher', tools: [search] });
 * @publicApi
 */
export function shieldAgentsTool<TContext, TParameters extends ToolInputParameters, TResult>(
  functionTool: FunctionTool<TContext, TParameters, TResult>,
  options: AgentsShieldOptions = {},
): FunctionTool<TContext, TParameters, TResult> {
  const { conversationId, onOutcome, ...shieldOptions } = options;
  const run = shieldTool(
    ([runContext, input, details]: [RunContext<TContext>, string, ToolCallDetails], { signal }) =>
      functionTool.invoke(runContext, input, { ...details, signal }),
    { ...shieldOptions, name: options.name ?? functionTool.name },
  );
  return {
    ...functionTool,
    invoke: async (runContext, input, details) => {
      const outcome = await run([runContext, input, details], {
        callId: details?.toolCall?.callId,
        signal: details?.signal,
        conversationId: runContext && conversationId?.(runContext),
      });
      onOutcome?.(outcome);
      return outcome.success ? outcome.output : renderFailureText(outcome);
    },
  };
}
