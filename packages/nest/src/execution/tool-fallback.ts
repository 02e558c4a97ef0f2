import {
  createToolResult,
  type Clock,
  type ToolCallRequest,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
import type { ToolFallbackOptions } from '../interfaces/tool-options.interface.js';

/** Runs another tool call (the executor's `execute`). @internal */
export type ExecuteCall = (request: ToolCallRequest) => Promise<ToolOutcome>;

/** What `metadata.fallback` of a fallen-back result says. @publicApi */
export interface FallbackMetadata {
  /** `'value'`, or the name of the tool whose result stands in. */
  readonly from: string;
  /** The failure type that was replaced. */
  readonly reason: ToolFailure['errorType'];
  /** The failure's text, so the model knows the answer is a stand-in and why. */
  readonly error: string;
}

/**
 * The outcome of a failed call after its tool's fallback: the fallback value or the other
 * tool's output as a `ToolResult` marked `metadata.fallback`, or the original failure when
 * the type does not fall back or the fallback tool fails too (its failure is not what the
 * model asked about).
 *
 * @internal
 */
export async function applyFallback(
  failure: ToolFailure,
  fallback: ToolFallbackOptions,
  args: unknown,
  execute: ExecuteCall,
  clock: Clock,
  startedAt: number,
): Promise<ToolOutcome> {
  if (!fallback.on.includes(failure.errorType)) return failure;
  let output = fallback.value;
  let from = 'value';
  if (fallback.tool !== undefined) {
    const substitute = await execute({
      id: `${failure.callId}:fallback`,
      name: fallback.tool,
      arguments: (fallback.args ? fallback.args(args) : args) as ToolCallRequest['arguments'],
    });
    if (!substitute.success) return failure;
    output = substitute.output;
    from = fallback.tool;
  }
  const marker: FallbackMetadata = { from, reason: failure.errorType, error: failure.error };
  return createToolResult(output, {
    tool: failure.tool,
    callId: failure.callId,
    retryCount: failure.retryCount,
    durationMs: clock.now() - startedAt,
    metadata: { fallback: marker },
  });
}
