import {
  Tool,
  isValidationError,
  validateToolInput,
  type ToolExecutionContext,
} from '@mastra/core/tools';
import { shieldTool, type ShieldOptions, type ToolOutcome } from '@toolshield/core';
import { outcomeContent } from '@toolshield/core/internal';
import { acceptingSchema } from './accepting-schema.js';
import { conversationOf, toolCallIdOf, type MastraConversationOption } from './conversation-of.js';
import { fromMastraValidationError } from './mastra-validation-error.js';
import { isMcpErrorResult, mcpResultError } from './mcp-error-result.js';
import { outcomeModelOutput } from './outcome-model-output.js';

/**
 * Shield options; the name defaults to the tool's id. `conversationId` scopes each call's
 * idempotency key as `<conversationId>:<toolCallId>` (default: the agent's memory thread, or
 * the workflow run), as in `toMastraTools`.
 *
 * @publicApi
 */
export type MastraShieldOptions = Omit<ShieldOptions, 'name'> & {
  readonly name?: string;
  readonly conversationId?: MastraConversationOption;
};

/**
 * The execution context of any Mastra tool (Mastra's own signatures use `any` for its
 * suspend, resume and request-context types).
 *
 * @publicApi
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMastraToolContext = ToolExecutionContext<any, any, any>;

/**
 * A Mastra tool after {@link shieldMastraTool}: the same id, schemas for the model, approval
 * and MCP facts, and an output that is the call's `ToolOutcome`.
 *
 * @publicApi
 */
export type ShieldedMastraTool<
  TInput,
  TOutput,
  TSuspend,
  TResume,
  TContext extends AnyMastraToolContext,
  TId extends string,
> = Tool<TInput, ToolOutcome<TOutput>, TSuspend, TResume, TContext, TId>;

/**
 * Puts any Mastra tool (a `createTool()` tool, or one Mastra's MCP client loaded from a server)
 * behind toolshield's policies, on `@toolshield/core` alone: classification, a per-attempt
 * timeout whose signal reaches the tool as its `abortSignal`, a circuit breaker per tool,
 * retries only when you mark it `idempotent` (`retry` tunes them, and is refused on a tool not
 * marked so), an optional bulkhead.
 *
 * Each call ends in a `ToolOutcome`, returned as the tool's output rather than thrown: the model
 * reads the tool's own `toModelOutput` (or the output as text) on success, and toolshield's
 * failure text as an `error-text` part on failure. What Mastra tools report without throwing
 * is a failure too: arguments failing the tool's `inputSchema` (`invalid_input`, fields listed,
 * never retried), an output failing its `outputSchema` (`invalid_output`), and an MCP result
 * marked `isError` (classified, so retried when transient: see {@link McpToolResultError}).
 *
 * @example
 * const mcp = new MCPClient({ servers: { search: { url: new URL(searchUrl) } } });
 * const searchTools = await mcp.listTools();
 * const search = shieldMastraTool(searchTools['search_web'], { idempotent: true, timeoutMs: 10_000 });
 * const agent = new Agent({ id: 'researcher', name: 'Researcher', instructions, model, tools: { search } });
 * @publicApi
 */
export function shieldMastraTool<
  TInput,
  TOutput,
  TSuspend,
  TResume,
  TContext extends AnyMastraToolContext,
  TId extends string,
>(
  tool: Tool<TInput, TOutput, TSuspend, TResume, TContext, TId>,
  options: MastraShieldOptions = {},
): ShieldedMastraTool<TInput, TOutput, TSuspend, TResume, TContext, TId> {
  const { conversationId, name = tool.id, ...shieldOptions } = options;
  // What reads the tool's own output (its schema, display transform, onOutput) is left out:
  // the shielded tool's output is the call's outcome.
  const {
    execute,
    inputSchema,
    toModelOutput: successOutput,
    outputSchema: _outputSchema,
    transform: _transform,
    onOutput: _onOutput,
    requestContextSchema: _requestContextSchema,
    ...kept
  } = tool;
  const run = shieldTool(
    async ([input, context]: [TInput, TContext], { signal }): Promise<TOutput> => {
      const checked = validateToolInput(inputSchema, input, tool.id);
      if (checked.error) throw fromMastraValidationError(checked.error, 'input');
      const value = await execute?.(input, { ...context, abortSignal: signal });
      if (isValidationError(value)) throw fromMastraValidationError(value, 'output');
      if (isMcpErrorResult(value)) throw mcpResultError(value);
      return value as TOutput;
    },
    { ...shieldOptions, name },
  );
  return new Tool<TInput, ToolOutcome<TOutput>, TSuspend, TResume, TContext, TId>({
    ...kept,
    inputSchema: inputSchema && acceptingSchema<TInput>(inputSchema['~standard'].jsonSchema),
    execute:
      execute &&
      ((input, context) =>
        run([input, context as TContext], {
          callId: toolCallIdOf(context as TContext),
          signal: context.abortSignal,
          conversationId: conversationOf(conversationId, context as TContext),
        })),
    toModelOutput: (outcome) =>
      outcome.success
        ? (successOutput?.(outcome.output) ?? { type: 'text', value: outcomeContent(outcome) })
        : outcomeModelOutput(outcome),
  });
}
