import type { ToolCallRequest, ToolOutcome } from '../../results/index.js';

/**
 * Runs one tool call to its outcome; `ToolExecutor.execute` from `@toolshield/nest` fits.
 * It should never reject; the batch runner turns a rejection into an `internal` failure.
 *
 * @publicApi
 */
export type ToolCallExecutor = (
  call: ToolCallRequest,
  options: { readonly signal?: AbortSignal },
) => Promise<ToolOutcome>;
