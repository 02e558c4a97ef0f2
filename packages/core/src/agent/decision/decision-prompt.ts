import type { ToolFailure } from '../../results/index.js';

/** The tool a model calls to end a run, unless configured otherwise. @publicApi */
export const DEFAULT_COMPLETION_TOOL = 'complete';

/**
 * System-prompt guidance for tool failures, naming `completionTool` as the way to stop.
 *
 * @publicApi
 */
export function buildDecisionGuidance(completionTool: string = DEFAULT_COMPLETION_TOOL): string {
  return [
    'Tool failures come back as results with errorType, recoverable and retry counts; retries already happened.',
    'Never repeat a failed call with the same arguments.',
    `After a failure, CONTINUE with a different tool or different arguments if that can still reach the goal; otherwise STOP by calling ${completionTool} with what you have and what failed.`,
  ].join(' ');
}

/**
 * The system-prompt guidance for the default completion tool (`complete`).
 *
 * @publicApi
 */
export const DECISION_PROMPT_GUIDANCE = buildDecisionGuidance();

function describeFailure(failure: ToolFailure): string {
  const facts = [
    failure.errorType,
    failure.recoverable ? 'recoverable' : 'not recoverable',
    ...(failure.effect === 'unknown' ? ['may have taken effect'] : []),
    `retries ${failure.retryCount}/${failure.retryMax}`,
  ];
  if (failure.retryAfterMs !== undefined) facts.push(`retry after ${failure.retryAfterMs}ms`);
  return `- ${failure.tool} (${failure.callId}): ${facts.join(', ')}`;
}

/**
 * The message that follows failed tool results and asks the model to decide, one line per
 * failure. The failures' own messages are already in the tool results, so they are not
 * repeated here.
 *
 * @example
 * // Tool failed:
 * // - search (c1): timeout, recoverable, retries 2/2, retry after 3000ms
 * // Decide: CONTINUE with a different approach, or STOP by calling complete.
 *
 * @publicApi
 */
export function buildDecisionPrompt(
  failures: readonly ToolFailure[],
  completionTool: string = DEFAULT_COMPLETION_TOOL,
): string {
  return [
    failures.length === 1 ? 'Tool failed:' : `${failures.length} tools failed:`,
    ...failures.map(describeFailure),
    `Decide: CONTINUE with a different approach, or STOP by calling ${completionTool}.`,
  ].join('\n');
}
