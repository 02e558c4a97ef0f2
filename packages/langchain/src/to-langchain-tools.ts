import { type ToolCatalog, type ToolCatalogOptions, type ToolDefinition } from '@toolshield/core';
import { catalogDefinitions, outcomeContent } from '@toolshield/core/internal';
import type { ToolMessage } from '@langchain/core/messages';
import {
  DynamicStructuredTool,
  ToolInputParsingException,
  type ToolRunnableConfig,
} from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import { LANGCHAIN_APPROVAL, LangChainApprovalGate } from './langchain-approval-gate.js';
import { outcomeToolMessage } from './outcome-tool-message.js';
import { argumentsOf, threadIdOf, toolCallIdOf } from './tool-call-id.js';

/** Options of {@link toLangChainTools}. @publicApi */
export interface LangChainToolsOptions extends ToolCatalogOptions {
  /**
   * The conversation a call belongs to, read from the run config the tool receives; it scopes
   * the call's idempotency key (`<conversationId>:<toolCallId>`), since models number their
   * calls per conversation. Default: LangGraph's thread, `config.configurable.thread_id`
   * (a string or number); without one, each call's key is unique to it.
   */
  readonly conversationId?: (config: ToolRunnableConfig | undefined) => string | undefined;
}

/** A toolshield tool as LangChain sees it. @publicApi */
export type ToolshieldLangChainTool = DynamicStructuredTool<
  JSONSchema,
  Record<string, unknown>,
  Record<string, unknown>,
  ToolMessage | string
>;

/**
 * The catalog's tools as LangChain structured tools, for `createAgent` (langchain v1), LangGraph's
 * `ToolNode`, or `model.bindTools`. Each carries its JSON Schema; each call runs through the
 * executor with the model's tool call id, and the run's `signal` reaches the tool's signal.
 * Arguments LangChain's own schema check refuses go to the executor all the same, so the model
 * reads toolshield's `invalid_input` failure listing the fields (not LangChain's error with
 * its stack trace).
 *
 * Called with a tool call (as `ToolNode` does), a tool answers with a `ToolMessage`: the
 * model-facing text as content, `status: 'error'` for a failure (never thrown, so the agent goes
 * on), and the structured `ToolResult` / `ToolFailure` as the artifact. Called with bare
 * arguments, it answers with the text.
 *
 * A tool with `needsApproval` waits for a person: with LangChain's `humanInTheLoopMiddleware`
 * (`interruptOn: toolshieldInterruptOn(tools)`) the agent stops in its own loop and the call a
 * person approved runs once; without it, toolshield's gate answers `approval_pending`.
 *
 * @example
 * const agent = createAgent({
 *   model: 'openai:gpt-5-mini',
 *   tools: toLangChainTools({ registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) }),
 * });
 * const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'Weather in Paris?' }] });
 * @publicApi
 */
export function toLangChainTools(
  catalog: ToolCatalog,
  options: LangChainToolsOptions = {},
): ToolshieldLangChainTool[] {
  return catalogDefinitions(catalog, options).map((definition) => {
    const gate = LangChainApprovalGate.of(catalog, definition.name, options.metadata);
    const serve = async (input: unknown, config: ToolRunnableConfig | undefined) => {
      const toolCallId = toolCallIdOf(config, input);
      const outcome = await catalog.executor.execute(
        { id: toolCallId, name: definition.name, arguments: argumentsOf(input) },
        {
          signal: config?.signal,
          metadata: options.metadata,
          conversationId: (options.conversationId ?? threadIdOf)(config),
          ...(gate?.approvedByPerson(toolCallId) ? { approved: {} } : {}),
        },
      );
      return toolCallId === undefined
        ? outcomeContent(outcome)
        : outcomeToolMessage(outcome, toolCallId);
    };
    const structured: ToolshieldLangChainTool = new DynamicStructuredTool({
      name: definition.name,
      description: definition.description,
      schema: toLangChainSchema(definition),
      func: (input: Record<string, unknown>, _runManager, config) => serve(input, config),
    });
    const invoke = (input: unknown, config?: ToolRunnableConfig) =>
      structured
        .invoke(input as Parameters<ToolshieldLangChainTool['invoke']>[0], config)
        .catch((error: unknown) => {
          if (error instanceof ToolInputParsingException) return serve(input, config);
          throw error;
        });
    return Object.create(structured, {
      invoke: { value: invoke },
      [LANGCHAIN_APPROVAL]: { value: gate },
    }) as ToolshieldLangChainTool;
  });
}

/** LangChain's JSON Schema type has mutable arrays where toolshield's are read-only; the schema is cloned, never shared. */
function toLangChainSchema(definition: ToolDefinition): JSONSchema {
  return structuredClone(definition.inputSchema) as JSONSchema;
}
