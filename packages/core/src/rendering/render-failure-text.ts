import { TOOL_ERROR_TYPE_TRAITS } from '../errors/tool-error-type.js';
import type { ValidationIssue } from '../errors/tool-error.js';
import { retriesSpent } from '../results/failure-suggestions.js';
import { formatDelay } from '../results/format-delay.js';
import type { ToolFailure } from '../results/tool-outcome.js';

const MAX_LISTED_TOOLS = 10;
const MAX_LISTED_ISSUES = 5;

/**
 * The failure as short text for the model (every token it reads costs money): what failed,
 * the type and the attempt (`3/3`, or `1 (not retried: not_found is not transient)` when the
 * pipeline stopped before its allowed retries), the error sentence, that the call may have
 * taken effect (`effect: 'unknown'`) or whether retrying may help (and after how long; or,
 * when the pipeline has already retried, how often; or that the retry budget withheld
 * retries; nothing for a failure a corrected call recovers from, whose next step says how),
 * the did-you-mean names, available tools or field issues when present, and one next step.
 * Deterministic, one fact per line.
 *
 * @example
 * renderFailureText(failure);
 * // Tool get_weather failed: rate_limited, attempt 3/3.
 * // Too many requests.
 * // Already retried 2 times.
 * // Next: Wait 2s before using this tool again, or use another tool.
 *
 * @publicApi
 */
export function renderFailureText(failure: ToolFailure): string {
  return [
    `Tool ${failure.tool} failed: ${failure.errorType}, attempt ${attemptText(failure)}.`,
    failure.error,
    retryLine(failure),
    detailsLine(failure),
    failure.suggestions[0] === undefined ? undefined : `Next: ${failure.suggestions[0]}`,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

/**
 * `n/m` when every allowed attempt was made; `n (not retried: why)` when the pipeline could
 * have retried but did not, so the model never reads a count it was not going to reach.
 */
function attemptText(failure: ToolFailure): string {
  const attempt = failure.retryCount + 1;
  if (failure.retryCount >= failure.retryMax) return `${attempt}/${failure.retryMax + 1}`;
  return `${attempt} (not retried: ${notRetriedReason(failure)})`;
}

function notRetriedReason(failure: ToolFailure): string {
  if (failure.errorType === 'circuit_open') return 'the circuit breaker is open';
  if (failure.metadata.retriesWithheld === true) return 'the retry budget is spent';
  if (!TOOL_ERROR_TYPE_TRAITS[failure.errorType].retryable)
    return `${failure.errorType} is not transient`;
  if (failure.retryAfterMs !== undefined)
    return 'the wait it asked for is longer than retries may wait';
  return 'the retry policy stopped';
}

/** What the model reads when the retry budget withheld the call's retries. */
const RETRIES_WITHHELD_LINE =
  'Retries were withheld to protect the upstream: too many calls to it are failing.';

/** What the model reads when the call may have taken effect. */
const EFFECT_UNKNOWN_LINE = 'It may have taken effect.';

function retryLine(failure: ToolFailure): string | undefined {
  if (failure.effect === 'unknown') return EFFECT_UNKNOWN_LINE;
  if (!failure.recoverable) return 'Retrying will not help.';
  if (failure.metadata.retriesWithheld === true) return RETRIES_WITHHELD_LINE;
  if (retriesSpent(failure.errorType, failure.retryCount))
    return `Already retried ${failure.retryCount} ${failure.retryCount === 1 ? 'time' : 'times'}.`;
  // Recovered by a corrected call (fixed arguments, another name): the next step says how.
  if (!TOOL_ERROR_TYPE_TRAITS[failure.errorType].retryable && failure.retryAfterMs === undefined)
    return undefined;
  return failure.retryAfterMs === undefined
    ? 'Retrying may help.'
    : `Retrying may help after ${formatDelay(failure.retryAfterMs)}.`;
}

function detailsLine(failure: ToolFailure): string | undefined {
  if (failure.didYouMean?.length) return `Did you mean: ${failure.didYouMean.join(', ')}?`;
  if (failure.availableTools?.length)
    return `Available: ${listed(failure.availableTools, MAX_LISTED_TOOLS)}.`;
  if (failure.issues?.length)
    return `Issues: ${listed(failure.issues.map(issueText), MAX_LISTED_ISSUES, '; ')}.`;
  return undefined;
}

function issueText(issue: ValidationIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

function listed(items: readonly string[], max: number, separator = ', '): string {
  const shown = items.slice(0, max).join(separator);
  return items.length > max ? `${shown}${separator}+${items.length - max} more` : shown;
}
