import { shieldTool, type ShieldOptions, type ToolOutcome } from '@toolshield/core';
import { outcomeContent } from '@toolshield/core/internal';
import type { InferToolInput, InferToolOutput, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { conversationOf, type AiSdkConversationOption } from './conversation-of.js';
import { toolOutcomeModelOutput, type AiSdkModelOutput } from './tool-outcome-model-output.js';

/** Shield options without the name (each tool's name is its key in the set). @publicApi */
export type AiSdkShieldOptions = Omit<ShieldOptions, 'name'>;

/** Options of {@link shieldAiSdkTools}. @publicApi */
export interface ShieldAiSdkToolsOptions extends AiSdkShieldOptions {
  /**
   * Options of single tools, by name, over the shared ones (say which are idempotent here).
   * Shared `retry` options tune only the tools that end up idempotent; `retry` given here to a
   * tool that is not is refused.
   */
  readonly tools?: Readonly<Record<string, AiSdkShieldOptions>>;
  /**
   * The conversation the calls belong to, which scopes their idempotency keys
   * (`<conversationId>:<toolCallId>`): models number their calls per conversation, and the AI
   * SDK has no conversation id of its own. A string when the tools are wrapped per request, or a
   * function of each call's execution options (`toolCallId`, `messages`, `context`). Without
   * one, each call's key is unique to it.
   */
  readonly conversationId?: AiSdkConversationOption;
}

/**
 * A `ToolSet` after {@link shieldAiSdkTools}: every tool with an `execute` now outputs the
 * call's `ToolOutcome`; tools without one (client-side, provider-executed) are unchanged.
 *
 * @publicApi
 */
export type ShieldedAiSdkTools<TOOLS extends ToolSet> = {
  [K in keyof TOOLS]: undefined extends TOOLS[K]['execute']
    ? TOOLS[K]
    : Tool<InferToolInput<TOOLS[K]>, ToolOutcome<InferToolOutput<TOOLS[K]>>>;
};

type Execute = NonNullable<Tool['execute']>;
type ToModelOutput = NonNullable<Tool['toModelOutput']>;

/**
 * Puts every tool of an existing AI SDK `ToolSet` behind toolshield's policies, on
 * `@toolshield/core` alone (no Nest): classification, a per-attempt timeout whose signal
 * reaches the tool as its `abortSignal`, a circuit breaker per tool, retries only for tools
 * you mark `idempotent` (shared `retry` options tune those; a tool's own `retry` is refused
 * unless it is idempotent), a bulkhead if asked. Each call then ends in
 * a `ToolOutcome`, returned as the tool's output rather than thrown: the model reads the
 * output through the tool's own `toModelOutput` on success, and toolshield's failure text as
 * an `error-text` part on failure.
 *
 * @example
 * const tools = shieldAiSdkTools(
 *   { search: searchTool, sendEmail: sendEmailTool },
 *   { timeoutMs: 10_000, tools: { search: { idempotent: true } } },
 * );
 * const { text } = await generateText({ model, tools, stopWhen: isStepCount(5), prompt });
 * @publicApi
 */
export function shieldAiSdkTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: ShieldAiSdkToolsOptions = {},
): ShieldedAiSdkTools<TOOLS> {
  const { tools: perTool = {}, conversationId, ...shared } = options;
  const shielded: Record<string, unknown> = {};
  for (const [name, original] of Object.entries(tools)) {
    shielded[name] =
      original.execute === undefined
        ? original
        : shieldOne(
            original as Tool & { execute: Execute },
            optionsOf(name, shared, perTool[name]),
            conversationId,
          );
  }
  // Each entry is the mapped type's member for its key, built above.
  return shielded as ShieldedAiSdkTools<TOOLS>;
}

/**
 * One tool's options: its own over the shared ones. Shared `retry` options tune the set's
 * idempotent tools, as `defaults.retry` does in Nest, and are left out for the others; a tool's
 * own `retry` goes to `shieldTool`, which refuses it on a tool not marked idempotent.
 */
function optionsOf(
  name: string,
  shared: AiSdkShieldOptions,
  own: AiSdkShieldOptions = {},
): ShieldOptions {
  const { retry, ...options } = { ...shared, ...own };
  const retryIsShared = own.retry === undefined;
  return retryIsShared && options.idempotent !== true
    ? { ...options, name }
    : { ...options, retry, name };
}

function shieldOne(
  original: Tool & { execute: Execute },
  options: ShieldOptions,
  conversationId: AiSdkConversationOption | undefined,
): Tool {
  const run = shieldTool(
    ([input, execution]: [unknown, ToolExecutionOptions<unknown>], { signal }) =>
      finalValue(original.execute(input, { ...execution, abortSignal: signal })),
    options,
  );
  const successOutput = original.toModelOutput;
  return {
    ...original,
    execute: (input: unknown, execution: ToolExecutionOptions<unknown>) =>
      run([input, execution], {
        callId: execution.toolCallId,
        signal: execution.abortSignal,
        conversationId: conversationOf(conversationId, execution),
      }),
    toModelOutput: (({ toolCallId, input, output }: Parameters<ToModelOutput>[0]) =>
      modelOutput(output as ToolOutcome, (value) =>
        successOutput?.({ toolCallId, input, output: value }),
      )) as ToModelOutput,
  } as Tool;
}

function modelOutput(
  outcome: ToolOutcome,
  success: (output: unknown) => AiSdkModelOutput | PromiseLike<AiSdkModelOutput> | undefined,
): AiSdkModelOutput | PromiseLike<AiSdkModelOutput> {
  if (!outcome.success) return toolOutcomeModelOutput(outcome);
  return success(outcome.output) ?? { type: 'text', value: outcomeContent(outcome) };
}

/** A streaming tool's last value (its preliminary values are dropped), or the value itself. */
async function finalValue(result: unknown): Promise<unknown> {
  const settled = await result;
  if (settled === null || typeof settled !== 'object' || !(Symbol.asyncIterator in settled)) {
    return settled;
  }
  let last: unknown;
  for await (const value of settled as AsyncIterable<unknown>) last = value;
  return last;
}
