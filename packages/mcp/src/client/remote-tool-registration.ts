import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObjectSchema } from '@toolshield/core';
import { DEFAULT_CIRCUIT_BREAKER_OPTIONS } from '@toolshield/core/internal';
import type { ToolHandler, ToolOptions, ToolRegistration } from '@toolshield/nest';
import type { McpClientOptions } from './mcp-client-options.interface.js';
import { isRemoteToolFailure } from './mcp-failure.js';

const NOT_PORTABLE = /[^A-Za-z0-9_-]/g;

/**
 * The local name of a remote tool: `<prefix>__<tool>`, characters the model providers
 * refuse replaced by `_`; `undefined` when it would be longer than 64.
 *
 * @internal
 */
export function localToolName(options: McpClientOptions, remote: string): string | undefined {
  const name = `${options.prefix ?? options.name}__${remote.replace(NOT_PORTABLE, '_')}`;
  return name.length <= 64 ? name : undefined;
}

/**
 * How toolshield registers one remote tool: the server's schema and annotations as they
 * are, its `idempotentHint` (or the client options) as the `idempotent` declaration, so it is
 * retried only when idempotent; one breaker
 * per server, for which `isError` results are neutral.
 *
 * @internal
 */
export function remoteToolRegistration(
  options: McpClientOptions,
  tool: Tool,
  name: string,
  handler: ToolHandler,
): ToolRegistration {
  const idempotent = isIdempotent(options.idempotent, tool);
  return {
    name,
    description:
      tool.description?.trim() ||
      tool.title ||
      `The "${tool.name}" tool of MCP server "${options.name}".`,
    inputSchema: tool.inputSchema as JsonObjectSchema,
    ...(tool.annotations ? { annotations: annotationsOf(tool.annotations) } : {}),
    idempotent,
    ...(idempotent && options.retry ? { retryable: options.retry } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.bulkhead ? { bulkhead: options.bulkhead } : {}),
    breaker: options.breaker === false ? false : serverBreaker(options),
    source: `MCP server "${options.name}" tool "${tool.name}"`,
    handler,
  };
}

function isIdempotent(choice: McpClientOptions['idempotent'], tool: Tool): boolean {
  if (typeof choice === 'boolean') return choice;
  return tool.annotations?.idempotentHint === true || (choice?.includes(tool.name) ?? false);
}

function serverBreaker(options: McpClientOptions) {
  const isNeutral =
    (options.breaker || undefined)?.isNeutral ?? DEFAULT_CIRCUIT_BREAKER_OPTIONS.isNeutral;
  return {
    ...(options.breaker || {}),
    name: options.name,
    isNeutral: (error: unknown) => isRemoteToolFailure(error) || isNeutral(error),
  };
}

/** The server's hints but `idempotentHint`, which becomes the tool's `idempotent` declaration. */
function annotationsOf(annotations: NonNullable<Tool['annotations']>): ToolOptions['annotations'] {
  const { title, readOnlyHint, destructiveHint, openWorldHint } = annotations;
  return Object.fromEntries(
    Object.entries({ title, readOnlyHint, destructiveHint, openWorldHint }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as ToolOptions['annotations'];
}
