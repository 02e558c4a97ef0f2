import { MastraNonRetryableError } from '@mastra/core/error';
import { renderFailureText, type ToolFailure, type ToolOutcome } from '@toolshield/core';
import { createToolError } from '@toolshield/core/internal';

/**
 * The output of a successful outcome, for a workflow step's `execute`; a failure is thrown as
 * {@link toolFailureStepError} makes it, so the step fails with toolshield's failure text and
 * the `ToolFailure` as the error's `cause`.
 *
 * @example
 * const charge = createStep({
 *   id: 'charge', inputSchema, outputSchema,
 *   execute: async ({ inputData, abortSignal }) =>
 *     stepOutput(await executor.execute({ name: 'charge_card', arguments: inputData }, { signal: abortSignal })),
 * });
 * @publicApi
 */
export function stepOutput<TOutput>(outcome: ToolOutcome<TOutput>): TOutput {
  if (outcome.success) return outcome.output;
  throw toolFailureStepError(outcome);
}

/**
 * The error a workflow step throws for a toolshield failure, so that retries happen in one
 * place, never multiplied (step attempts × toolshield attempts):
 *
 * - a `MastraNonRetryableError` (the step fails at once, whatever its `retries` or the
 *   workflow's `retryConfig` say) when the failure is not `recoverable`, when it is not
 *   transient for the same arguments (`invalid_input`, `not_found`, ...: a step retry repeats
 *   them), or when toolshield's own policies already retried the call (`retryMax > 0`);
 * - a plain `Error` otherwise: a transient, recoverable failure of a call toolshield was not
 *   allowed to retry (`retryMax: 0`), which the step's own retries may repeat.
 *
 * Either carries toolshield's failure text as its message and the `ToolFailure` as its `cause`.
 *
 * @publicApi
 */
export function toolFailureStepError(failure: ToolFailure): Error {
  const options = { cause: failure };
  return stepMayRetry(failure)
    ? new Error(renderFailureText(failure), options)
    : new MastraNonRetryableError(renderFailureText(failure), options);
}

function stepMayRetry(failure: ToolFailure): boolean {
  return (
    failure.recoverable &&
    failure.retryMax === 0 &&
    createToolError(failure.errorType, failure.error).retryable
  );
}
