import { Tool, type ToolExecutionContext } from '@mastra/core/tools';
import { type ToolCatalog, type ToolCatalogOptions, type ToolOutcome } from '@toolshield/core';
import { approvalPolicyOf, askApprovalPolicy, catalogDefinitions } from '@toolshield/core/internal';
import { conversationOf, toolCallIdOf, type MastraConversationOption } from './conversation-of.js';
import { outcomeModelOutput } from './outcome-model-output.js';
import { toolInputSchema, type ToolArguments } from './tool-input-schema.js';

/** Options of {@link toMastraTools}. @publicApi */
export interface MastraToolsOptions extends ToolCatalogOptions {
  /**
   * The conversation the calls belong to, which scopes their idempotency keys
   * (`<conversationId>:<toolCallId>`): a string when the tools are built per request, or a
   * function of each call's Mastra execution context. Default: the agent's memory thread
   * (`threadId`), or the workflow run; without either, each call's key is unique to it.
   */
  readonly conversationId?: MastraConversationOption;
}

/** A toolshield tool as Mastra sees it: its output is the call's `ToolOutcome`. @publicApi */
export type ToolshieldMastraTool = Tool<ToolArguments, ToolOutcome>;

/**
 * The catalog's tools as Mastra tools, for `new Agent({ tools })`, workflow steps
 * (`createStep(tool)`) and `MCPServer`. Each carries the tool's JSON Schema and description;
 * its `execute` runs the call through the executor (so through every toolshield policy) with
 * the model's tool call id, and Mastra's `abortSignal` (the run's `abortSignal`) reaching the
 * tool's signal. The executor validates the arguments, so invalid ones come back as an
 * `invalid_input` failure listing the fields.
 *
 * Every call's output is its `ToolOutcome`, failures included, never a thrown error: the
 * application reads the structured `ToolResult` or `ToolFailure` in `toolResults`, and the
 * model reads the result's output, or toolshield's short failure text as an `error-text` part.
 * A tool with `needsApproval` gets Mastra's `requireApproval`: the agent's run pauses
 * (`finishReason: 'suspended'`) until `approveToolCallGenerate` or `declineToolCallGenerate`,
 * and the approved call runs once without toolshield asking again; a declined one never
 * reaches the executor. The set is a snapshot of the catalog: build it per request to follow
 * tools registered at run time.
 *
 * @example
 * const tools = toMastraTools({ registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) });
 * const agent = new Agent({ id: 'travel', name: 'Travel', instructions, model, tools });
 * @publicApi
 */
export function toMastraTools(
  catalog: ToolCatalog,
  options: MastraToolsOptions = {},
): Record<string, ToolshieldMastraTool> {
  const tools: Record<string, ToolshieldMastraTool> = {};
  for (const definition of catalogDefinitions(catalog, options)) {
    const { name } = definition;
    const policy = approvalPolicyOf(catalog.registry, name);
    const asks = (input: ToolArguments, callId = '') =>
      askApprovalPolicy(policy, input, { callId, toolName: name, metadata: options.metadata });
    tools[name] = new Tool<ToolArguments, ToolOutcome>({
      id: name,
      title: definition.annotations?.title,
      description: definition.description,
      inputSchema: toolInputSchema(definition),
      // Mastra's own pause asks a person (the run ends `suspended` until approveToolCall...)
      ...(policy === undefined ? {} : { requireApproval: (input: ToolArguments) => asks(input) }),
      execute: async (input: ToolArguments, context: ToolExecutionContext) => {
        const callId = toolCallIdOf(context);
        return catalog.executor.execute(
          { id: callId, name, arguments: input },
          {
            signal: context.abortSignal,
            metadata: options.metadata,
            conversationId: conversationOf(options.conversationId, context),
            // only an agent's loop pauses for Mastra's requireApproval: elsewhere (a workflow
            // step, a direct call) toolshield's own gate asks
            ...(policy !== undefined && context.agent !== undefined && (await asks(input, callId))
              ? { approved: {} }
              : {}),
          },
        );
      },
      toModelOutput: outcomeModelOutput,
    });
  }
  return tools;
}
