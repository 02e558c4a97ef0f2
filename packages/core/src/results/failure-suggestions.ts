import type { ToolErrorType } from '../errors/tool-error-type.js';
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
 * Short next steps for the model after `error`, by error type (the wait is named when
 * `retryAfterMs` is known, the best did-you-mean name when there is one).
 *
 * @publicApi
 */
export function failureSuggestions(error: ToolError): string[] {
  return [SUGGESTIONS[error.type](error)];
}
