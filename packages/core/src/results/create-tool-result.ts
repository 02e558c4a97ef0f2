import type { ToolOutcomeContext } from './tool-outcome-context.js';
import type { ToolResult } from './tool-outcome.js';

/**
 * The {@link ToolResult} of a successful call.
 *
 * @example
 * createToolResult({ tempC: 21 }, { tool: 'get_weather', callId: 'call_1', durationMs: 84 });
 *
 * @publicApi
 */
export function createToolResult<TOutput>(
  output: TOutput,
  ctx: ToolOutcomeContext,
): ToolResult<TOutput> {
  return {
    success: true,
    tool: ctx.tool,
    callId: ctx.callId,
    output,
    metadata: { ...ctx.metadata, attempts: (ctx.retryCount ?? 0) + 1, durationMs: ctx.durationMs },
  };
}
