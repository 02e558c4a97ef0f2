import {
  type ToolCatalogOptions,
  type ToolCatalog,
  type ToolDefinition,
  type ToolOutcome,
} from '@toolshield/core';
import {
  approvalPolicyOf,
  askApprovalPolicy,
  catalogDefinitions,
  outcomeContent,
} from '@toolshield/core/internal';
import {
  tool,
  type FunctionTool,
  type JsonSchemaDefinition,
  type RunContext,
} from '@openai/agents';

/** The JSON Schema of a non-strict function tool's parameters. @publicApi */
export type AgentsToolParameters = Extract<
  JsonSchemaDefinition['schema'],
  { additionalProperties: true }
>;

/** A toolshield tool as the Agents SDK sees it: the model reads a string. @publicApi */
export type ToolshieldAgentsTool = FunctionTool<unknown, AgentsToolParameters, string>;

/** Options of {@link toAgentsTools}. @publicApi */
export interface AgentsToolsOptions extends ToolCatalogOptions {
  /** Told every call's structured outcome (the model reads its text). */
  readonly onOutcome?: (outcome: ToolOutcome) => void;
  /**
   * The conversation a call belongs to, read from the run's context (`run(agent, input, {
   * context })`), which scopes its idempotency key (`<conversationId>:<callId>`): models number
   * their calls per conversation. The SDK gives tools no conversation or trace group id, so
   * without this each call's key is unique to it (a resumed conversation's repeat gets a new key).
   */
  readonly conversationId?: (runContext: RunContext<unknown>) => string | undefined;
}

/**
 * The catalog's tools as OpenAI Agents SDK function tools, for `new Agent({ tools })`. Each is a
 * non-strict tool with the tool's JSON Schema (the executor validates the arguments, so invalid
 * ones come back as an `invalid_input` failure listing the fields); each call runs through the
 * executor with the model's call id, and the SDK's abort signal (its `timeoutMs` and run
 * cancellation) reaches the tool's signal.
 *
 * Failures are returned to the model as the tool's output, never thrown: it reads toolshield's
 * short failure text (what failed, whether retrying helps, the next step), the run goes on,
 * and `onOutcome` gets the structured `ToolResult` or `ToolFailure`.
 *
 * A tool with `needsApproval` carries it: the run stops with an interruption, and once
 * `state.approve(item)` (on the same state, or one restored with `RunState.fromString`) the
 * call runs once, without toolshield asking again. `toolshieldRunConfig` words a
 * `state.reject(item)` as toolshield's denial.
 *
 * @example
 * const agent = new Agent({
 *   name: 'Travel agent',
 *   tools: toAgentsTools({ registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) }),
 * });
 * const result = await run(agent, 'Weather in Paris?');
 * @publicApi
 */
export function toAgentsTools(
  catalog: ToolCatalog,
  options: AgentsToolsOptions = {},
): ToolshieldAgentsTool[] {
  return catalogDefinitions(catalog, options).map((definition) => {
    const { name } = definition;
    const policy = approvalPolicyOf(catalog.registry, name);
    const asks = (input: unknown, callId: string | undefined) =>
      askApprovalPolicy(policy, input, {
        callId: callId ?? '',
        toolName: name,
        metadata: options.metadata,
      });
    return tool({
      name,
      description: definition.description,
      parameters: toAgentsParameters(definition),
      strict: false,
      // the run's own interruption asks a person; the call it then runs is not asked again
      ...(policy === undefined
        ? {}
        : {
            needsApproval: (_context: unknown, input: unknown, callId?: string) =>
              asks(input, callId),
          }),
      execute: async (input, runContext, details) => {
        const callId = details?.toolCall?.callId;
        const outcome = await catalog.executor.execute(
          { id: callId, name, arguments: input as Readonly<Record<string, unknown>> },
          {
            signal: details?.signal,
            metadata: options.metadata,
            conversationId: runContext && options.conversationId?.(runContext),
            ...(policy !== undefined && (await asks(input, callId)) ? { approved: {} } : {}),
          },
        );
        options.onOutcome?.(outcome);
        return outcomeContent(outcome);
      },
    });
  });
}

/**
 * The SDK types a non-strict schema with `additionalProperties: true` and mutable arrays; the
 * tool's own schema is sent as it is (cloned), since a non-strict schema is not enforced by the
 * API and the executor validates the arguments.
 */
function toAgentsParameters(definition: ToolDefinition): AgentsToolParameters {
  return structuredClone({
    properties: {},
    required: [],
    ...definition.inputSchema,
  }) as AgentsToolParameters;
}
