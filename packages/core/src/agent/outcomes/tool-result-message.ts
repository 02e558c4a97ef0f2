import type { ToolFailure, ToolOutcome } from '../../results/index.js';
import type { ToolResultMessage } from '../conversation/conversation-message.js';

/**
 * Turns an outcome into the text the model reads in the tool result. Plug in a renderer of
 * your own (or core's) through the runner's and ledger's `renderOutcome` option.
 *
 * @publicApi
 */
export type ToolOutcomeRenderer = (outcome: ToolOutcome) => string;

function stringifyOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function failureBody(failure: ToolFailure): Record<string, unknown> {
  return {
    error: failure.error,
    errorType: failure.errorType,
    recoverable: failure.recoverable,
    effect: failure.effect,
    retryCount: failure.retryCount,
    retryMax: failure.retryMax,
    retryAfterMs: failure.retryAfterMs,
    issues: failure.issues,
    didYouMean: failure.didYouMean,
    availableTools: failure.availableTools,
    suggestions: failure.suggestions.length > 0 ? failure.suggestions : undefined,
  };
}

/**
 * The default rendering: a successful output as is (strings) or as JSON; a failure as compact
 * JSON of the facts the model acts on (no tool name, call id or metadata, which it already has
 * or does not need).
 *
 * @publicApi
 */
export const renderToolOutcomeContent: ToolOutcomeRenderer = (outcome) =>
  outcome.success ? stringifyOutput(outcome.output) : JSON.stringify(failureBody(outcome));

/**
 * The tool result message answering `call` with `outcome`. The ids come from the call, so the
 * message always answers the call it was produced for.
 *
 * @publicApi
 */
export function toToolResultMessage(
  call: { readonly id: string; readonly name: string },
  outcome: ToolOutcome,
  render: ToolOutcomeRenderer = renderToolOutcomeContent,
): ToolResultMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: render(outcome),
    isError: !outcome.success,
  };
}
