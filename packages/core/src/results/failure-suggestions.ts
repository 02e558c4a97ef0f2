import { TOOL_ERROR_TYPE_TRAITS, type ToolErrorType } from '../errors/tool-error-type.js';
import type { ToolError } from '../errors/tool-error.js';
import type { ToolNotFoundError } from '../errors/tool-not-found.error.js';
import { formatDelay } from './format-delay.js';

type Suggest = (error: ToolError) => string;

const waitFor = (
  error: ToolError,
  unknownDelay: string,
  known: (delay: string) => string,
): string =>
  error.retryAfterMs === undefined ? unknownDelay : known(formatDelay(error.retryAfterMs));

/** Each type's next step, for a failure as recoverable as its type says (`recoverable` agrees). */
const SUGGESTIONS: Readonly<Record<ToolErrorType, Suggest>> = {
  timeout: () => 'Retry once; if it times out again, narrow the request.',
  rate_limited: (error) =>
    waitFor(
      error,
      'Wait before calling this tool again.',
      (delay) => `Wait ${delay} before calling this tool again.`,
    ),
  network: () => 'Retry shortly; the connection failed.',
  upstream_unavailable: () => 'Retry later, or use another tool.',
  circuit_open: (error) =>
    waitFor(
      error,
      'Use another tool for now.',
      (delay) => `Do not call this tool for ${delay}; use another tool meanwhile.`,
    ),
  bulkhead_full: () => 'Retry in a moment.',
  invalid_input: () => 'Fix the arguments to match the schema, then call again.',
  tool_not_found: (error) => {
    const [best] = (error as ToolNotFoundError).didYouMean ?? [];
    return best === undefined ? 'Call one of the available tools.' : `Call '${best}' instead.`;
  },
  not_found: () => 'Do not repeat this call; check the identifier, or search for it first.',
  permission_denied: () => 'Do not retry; ask the user for access or do something else.',
  conflict: () => 'Do not repeat this call; re-read the current state first.',
  cancelled: () => 'Do not retry unless the user asks.',
  limit_exceeded: () => 'Do not repeat this call; ask for less, or tell the user.',
  invalid_output: () => 'Do not repeat this call; tell the user the tool misbehaved.',
  internal: () => 'Do not repeat this call; try another approach or tell the user.',
  approval_pending: () => 'Do not repeat this call; its result follows when a person decides.',
  approval_denied: () => 'Do not repeat this call with these arguments; ask the user instead.',
  approval_expired: () => 'Do not repeat this call unless the user asks; tell the user it expired.',
};

/** The next step after a call that may have taken effect (`ToolFailure.effect: 'unknown'`). @publicApi */
export const EFFECT_UNKNOWN_SUGGESTION =
  'Check whether it took effect with a read tool or ask the user; do not repeat it.';
/** The next step after the retry budget withheld the call's retries. */
const RETRIES_WITHHELD_SUGGESTION =
  'Do not repeat this call now; use another tool, or wait and tell the user.';
/** A failure of a type that is usually recoverable, which its error says is not. */
const NOT_RECOVERABLE_SUGGESTION = 'Do not repeat this call; use another tool, or tell the user.';
/** A failure of a type that is usually not recoverable, which its error says is. */
const RECOVERABLE_SUGGESTION =
  'Call it again; if it fails the same way, use another tool or tell the user.';

/**
 * Whether the pipeline has already retried a failure of a retryable type, and given up: the
 * model is then not told to retry (its system guidance says never to repeat a failed call
 * with the same arguments), but where else to go.
 *
 * @publicApi
 */
export function retriesSpent(errorType: ToolErrorType, retryCount: number | undefined): boolean {
  return (retryCount ?? 0) > 0 && TOOL_ERROR_TYPE_TRAITS[errorType].retryable;
}

function afterSpentRetries(error: ToolError): string {
  if (error.retryAfterMs !== undefined)
    return `Wait ${formatDelay(error.retryAfterMs)} before using this tool again, or use another tool.`;
  return error.type === 'timeout'
    ? 'Narrow the request, use another tool, or stop.'
    : 'Use another tool, or stop and tell the user.';
}

/** @publicApi */
export interface FailureSuggestionOptions {
  /** The call may have taken effect (`ToolFailure.effect: 'unknown'`): never suggest a repeat. */
  readonly effectUnknown?: boolean;
  /** The retry budget withheld the call's retries: point elsewhere. */
  readonly retriesWithheld?: boolean;
}

/**
 * Short next steps for the model after `error`, agreeing with what the failure says of
 * `recoverable`: the error's own `suggestions` when it gives some; after a call that may have
 * taken effect, to check the state with a read tool or ask the user; when the retry budget
 * withheld the call's retries, to use another tool or wait; when the error says
 * otherwise than its type about calling again, a step that agrees with it; when the pipeline
 * has already retried a retryable failure (`retryCount` > 0), a step pointing elsewhere (wait
 * `retryAfterMs` if known, use another tool, or stop); else the type's own step (naming the
 * wait when `retryAfterMs` is known, the best did-you-mean name when there is one).
 *
 * @publicApi
 */
export function failureSuggestions(
  error: ToolError,
  retryCount?: number,
  options: FailureSuggestionOptions = {},
): string[] {
  if (error.suggestions !== undefined && error.suggestions.length > 0)
    return [...error.suggestions];
  if (options.effectUnknown) return [EFFECT_UNKNOWN_SUGGESTION];
  if (options.retriesWithheld) return [RETRIES_WITHHELD_SUGGESTION];
  const typical = TOOL_ERROR_TYPE_TRAITS[error.type].recoverable;
  if (typical && !error.recoverable) return [NOT_RECOVERABLE_SUGGESTION];
  if (!typical && error.recoverable) return [RECOVERABLE_SUGGESTION];
  return [
    retriesSpent(error.type, retryCount)
      ? afterSpentRetries(error)
      : SUGGESTIONS[error.type](error),
  ];
}
