import { createStep, type Step } from '@mastra/core/workflows';
import type { ToolCatalog, ToolCatalogOptions, ToolOutcome } from '@toolshield/core';
import { catalogDefinitions } from '@toolshield/core/internal';
import { acceptingSchema } from './accepting-schema.js';
import { stepOutput } from './step-failure.js';
import { toolInputSchema, type ToolArguments } from './tool-input-schema.js';

/** Options of {@link toolshieldStep}. @publicApi */
export interface ToolshieldStepOptions extends Pick<ToolCatalogOptions, 'metadata'> {
  /** The step's id (default: the tool's name). */
  readonly id?: string;
  /**
   * The conversation the call belongs to, which scopes its idempotency key
   * (`<conversationId>:<callId>`, the call id generated per call). Default: the workflow run's id.
   */
  readonly conversationId?: string;
}

/**
 * A workflow step that calls one of the catalog's tools with the step's input, through every
 * toolshield policy, with the run's abort signal reaching the tool. Its output is the tool's
 * output; a failure fails the step as {@link toolFailureStepError} says: at once, with
 * Mastra's non-retryable error, when it is not recoverable or toolshield already retried it,
 * so the step's `retries` never multiply toolshield's.
 *
 * @example
 * const workflow = createWorkflow({ id: 'trip', inputSchema, outputSchema })
 *   .then(toolshieldStep(catalog, 'get_forecast'))
 *   .commit();
 * @publicApi
 */
export function toolshieldStep<TOutput = unknown>(
  catalog: ToolCatalog,
  toolName: string,
  options: ToolshieldStepOptions = {},
): Step<string, unknown, ToolArguments, TOutput> {
  const definition = catalogDefinitions(catalog, { only: [toolName] })[0];
  if (definition === undefined) {
    throw new Error(`toolshieldStep: the catalog has no tool named "${toolName}".`);
  }
  const anything = (): Record<string, unknown> => ({});
  return createStep({
    id: options.id ?? toolName,
    description: definition.description,
    inputSchema: toolInputSchema(definition),
    outputSchema: acceptingSchema<TOutput>({ input: anything, output: anything }),
    execute: async ({ inputData, abortSignal, runId }) => {
      const outcome = await catalog.executor.execute(
        { name: toolName, arguments: inputData },
        {
          signal: abortSignal,
          metadata: options.metadata,
          conversationId: options.conversationId ?? runId,
        },
      );
      // The catalog does not know its tools' output types: the caller names it.
      return stepOutput(outcome as ToolOutcome<TOutput>);
    },
  });
}
