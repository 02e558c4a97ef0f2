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
  not_found: () => 'Check the identifier, or search for it first.',
  permission_denied: () => 'Do not retry; ask the user for access or do something else.',
  conflict: () => 'Re-read the current state, then retry with updated input.',
  cancelled: () => 'Do not retry unless the user asks.',
  limit_exceeded: () => 'Make the request smaller, then call again.',
  invalid_output: () => 'Do not repeat this call; tell the user the tool misbehaved.',
  internal: () => 'Do not repeat this call; try another approach or tell the user.',
};

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

/**
 * Short next steps for the model after `error`, by error type (the wait is named when
 * `retryAfterMs` is known, the best did-you-mean name when there is one). When the pipeline
 * has already retried a retryable failure (`retryCount` > 0), the step points elsewhere: wait
 * `retryAfterMs` if known, use another tool, or stop.
 *
 * @publicApi
 */
export function failureSuggestions(error: ToolError, retryCount?: number): string[] {
  return [
    retriesSpent(error.type, retryCount)
      ? afterSpentRetries(error)
      : SUGGESTIONS[error.type](error),
  ];
}
