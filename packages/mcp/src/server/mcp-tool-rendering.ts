import { type OutcomeRenderOptions, type ToolOutcome } from '@toolshield/core';
import { toMcpCallToolResult, toMcpTool } from '@toolshield/core/internal';
import type { RegisteredTool } from '@toolshield/nest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpAnnotationsOf } from './mcp-annotations.js';

/**
 * A registered tool as `tools/list` lists it: its JSON Schema untouched, annotations derived
 * from its options.
 */
export function listedTool(tool: RegisteredTool): Tool {
  const annotations = mcpAnnotationsOf(tool.options);
  return toMcpTool({ ...tool.definition, annotations });
}

/**
 * An outcome as the `tools/call` result: the model-facing text, `isError` on failures, and
 * the structured part: an object output, or the whole `ToolFailure` on failures, so clients
 * that read `structuredContent` get the error type, retry facts and suggestions.
 */
export function callToolResult(
  outcome: ToolOutcome,
  options: OutcomeRenderOptions,
): CallToolResult {
  const { content, isError, structuredContent } = toMcpCallToolResult(outcome, options);
  // Copied rather than cast: core's McpCallToolResult has a readonly content tuple and a
  // readonly structuredContent, the SDK's CallToolResult mutable ones.
  const structured = outcome.success
    ? structuredContent && { ...structuredContent }
    : { ...outcome };
  return {
    content: content.map((part) => ({ ...part })),
    isError,
    ...(structured === undefined ? {} : { structuredContent: structured }),
  };
}
