import {
  type ToolCatalog,
  type ToolCatalogOptions,
  type ToolDefinition,
  type ToolOutcome,
} from '@toolshield/core';
import { approvalPolicyOf, askApprovalPolicy, catalogDefinitions } from '@toolshield/core/internal';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { conversationOf, type AiSdkConversationOption } from './conversation-of.js';
import { toolOutcomeModelOutput } from './tool-outcome-model-output.js';

/** Options of {@link toAiSdkTools}. @publicApi */
export interface AiSdkToolsOptions extends ToolCatalogOptions {
  /**
   * The conversation the calls belong to, which scopes their idempotency keys
   * (`<conversationId>:<toolCallId>`): models number their calls per conversation, and the AI
   * SDK has no conversation id of its own. A string when the tools are built per request, or a
   * function of each call's execution options (`toolCallId`, `messages`, `context`). Without
   * one, each call's key is unique to it (a resumed conversation's repeat gets a new key).
   */
  readonly conversationId?: AiSdkConversationOption;
}

/** A toolshield tool as the AI SDK sees it: its output is the call's `ToolOutcome`. @publicApi */
export type ToolshieldAiSdkTool = Tool<Record<string, unknown>, ToolOutcome>;

/**
 * The catalog's tools as an AI SDK `ToolSet`, for `generateText`, `streamText` and agents.
 * Each tool carries its JSON Schema; its `execute` runs the call through the executor (so
 * through every toolshield policy), with the SDK's `toolCallId` as the call id and the SDK's
 * `abortSignal` (its `timeout` included) reaching the tool's signal. The arguments are not
 * validated by the SDK: the executor validates them, so invalid ones come back as an
 * `invalid_input` failure with field issues.
 *
 * A tool with `needsApproval` carries it: the SDK pauses for a person's approval
 * (`tool-approval-request`) in its own loop, and runs the approved call once, without
 * toolshield asking again; a denial never reaches the executor.
 *
 * Every call's output is its `ToolOutcome`, failures included: the application reads the
 * `ToolResult` or `ToolFailure` in `toolResults`, and the model reads the result's output, or
 * the failure's short text as an `error-text` part, which it can act on. The set is a snapshot
 * of the catalog: build it per request to follow tools registered at run time.
 *
 * @example
 * const tools = toAiSdkTools({ registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) });
 * const { text } = await generateText({ model, tools, stopWhen: isStepCount(5), prompt });
 * @publicApi
 */
export function toAiSdkTools(
  catalog: ToolCatalog,
  options: AiSdkToolsOptions = {},
): Record<string, ToolshieldAiSdkTool> {
  const tools: Record<string, ToolshieldAiSdkTool> = {};
  for (const definition of catalogDefinitions(catalog, options)) {
    const { name } = definition;
    const policy = approvalPolicyOf(catalog.registry, name);
    const asks = (input: unknown, call: { readonly toolCallId: string }) =>
      askApprovalPolicy(policy, input, {
        callId: call.toolCallId,
        toolName: name,
        metadata: options.metadata,
      });
    tools[name] = tool({
      title: definition.annotations?.title,
      description: definition.description,
      inputSchema: jsonSchema<Record<string, unknown>>(toJsonSchema7(definition)),
      // the SDK's own pause asks a person; the call it then runs is not asked again
      ...(policy === undefined ? {} : { needsApproval: asks }),
      execute: async (input, execution) =>
        catalog.executor.execute(
          { id: execution.toolCallId, name, arguments: input },
          {
            signal: execution.abortSignal,
            metadata: options.metadata,
            conversationId: conversationOf(options.conversationId, execution),
            ...(policy !== undefined && (await asks(input, execution)) ? { approved: {} } : {}),
          },
        ),
      toModelOutput: ({ output }) => toolOutcomeModelOutput(output),
    });
  }
  return tools;
}

/** The SDK's JSON Schema type has mutable arrays where toolshield's are read-only; the schema is cloned, never shared. */
function toJsonSchema7(definition: ToolDefinition): JSONSchema7 {
  return structuredClone(definition.inputSchema) as JSONSchema7;
}
