import {
  renderFailureText,
  shieldTool,
  type ClassificationRule,
  type ShieldOptions,
} from '@toolshield/core';
import {
  ToolInputParsingException,
  type StructuredToolInterface,
  type ToolRunnableConfig,
} from '@langchain/core/tools';
import { outcomeToolMessage } from './outcome-tool-message.js';
import { threadIdOf, toolCallIdOf } from './tool-call-id.js';
import type { LangChainToolsOptions } from './to-langchain-tools.js';

/**
 * Shield options; the name defaults to the tool's. `conversationId` (a function of the run
 * config) scopes each call's idempotency key as `<conversationId>:<toolCallId>`, as in
 * `toLangChainTools`; default: LangGraph's thread, `config.configurable.thread_id` (without
 * one, each call's key is unique to it).
 *
 * @publicApi
 */
export type LangChainShieldOptions = Omit<ShieldOptions, 'name'> &
  Pick<LangChainToolsOptions, 'conversationId'> & { readonly name?: string };

/** LangChain's own argument check failing is the model's mistake, not the tool's. */
const inputParsingIsInvalidInput: ClassificationRule = (error) =>
  error instanceof ToolInputParsingException ? 'invalid_input' : undefined;

/**
 * Puts a LangChain structured tool behind toolshield's policies, on `@toolshield/core` alone:
 * its `invoke` runs with a per-attempt timeout whose signal reaches the tool (in the run
 * config), its own circuit breaker, retries only when you mark it `idempotent` (`retry` tunes
 * them, and is refused on a tool not marked so), an optional bulkhead, and classification of what it threw (LangChain's argument check
 * failing is `invalid_input`). The result is the same tool (same name, schema and type,
 * usable wherever the original was) whose failures come back instead of being thrown: as a
 * `ToolMessage` with `status: 'error'`, toolshield's short failure text and the `ToolFailure`
 * as artifact when invoked with a tool call (as `ToolNode` does), as the text otherwise.
 *
 * @example
 * const search = shieldLangChainTool(searchTool, { idempotent: true, timeoutMs: 10_000 });
 * const agent = createAgent({ model, tools: [search] });
 * @publicApi
 */
export function shieldLangChainTool<T extends StructuredToolInterface>(
  original: T,
  options: LangChainShieldOptions = {},
): T {
  const { conversationId = threadIdOf, ...shieldOptions } = options;
  const run = shieldTool(
    ([input, config]: [unknown, ToolRunnableConfig | undefined], { signal }) =>
      original.invoke(input as Parameters<T['invoke']>[0], { ...config, signal }),
    {
      ...shieldOptions,
      name: options.name ?? original.name,
      classificationRules: [inputParsingIsInvalidInput, ...(options.classificationRules ?? [])],
    },
  );
  const invoke = async (input: unknown, config?: ToolRunnableConfig) => {
    const toolCallId = toolCallIdOf(config, input);
    const outcome = await run([input, config], {
      callId: toolCallId,
      signal: config?.signal,
      conversationId: conversationId(config),
    });
    if (outcome.success) return outcome.output;
    return toolCallId === undefined
      ? renderFailureText(outcome)
      : outcomeToolMessage(outcome, toolCallId);
  };
  // The original stays the prototype: name, schema, response format and every other method
  // are its own; only `invoke` (which `batch`, `stream` and `ToolNode` go through) is shielded.
  return Object.create(original, { invoke: { value: invoke } }) as T;
}
