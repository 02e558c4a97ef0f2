import type { ToolOutcome } from '../results/tool-outcome.js';
import { outcomeContent, type OutcomeRenderOptions } from './outcome-content.js';
import type { JsonObjectSchema, ToolAnnotations, ToolDefinition } from './tool-definition.js';

/**
 * An MCP `CallToolResult` (`tools/call` response); assignable to the
 * `@modelcontextprotocol/sdk` `CallToolResult` (a type alias rather than an interface, so it
 * fits that type's open index signature).
 *
 * @publicApi
 */
export type McpCallToolResult = {
  readonly content: [{ readonly type: 'text'; readonly text: string }];
  readonly isError: boolean;
  /** The output itself, when it is a JSON object (never on errors). */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
};

/**
 * An MCP tool, as listed by `tools/list`; assignable to the `@modelcontextprotocol/sdk` `Tool`.
 *
 * @publicApi
 */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  readonly annotations?: ToolAnnotations;
}

/**
 * The outcome as an MCP `CallToolResult`: failures are reported in the result with
 * `isError: true` (so the model sees them), and an object output is also given as
 * `structuredContent`.
 *
 * @publicApi
 */
export function toMcpCallToolResult(
  outcome: ToolOutcome,
  options?: OutcomeRenderOptions,
): McpCallToolResult {
  const text = outcomeContent(outcome, options);
  const structured =
    outcome.success && isJsonObject(outcome.output) ? { structuredContent: outcome.output } : {};
  return { content: [{ type: 'text', text }], isError: !outcome.success, ...structured };
}

/** The definition as an MCP tool, annotations included when there are any. @publicApi */
export function toMcpTool(definition: ToolDefinition): McpTool {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
  };
}

function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
