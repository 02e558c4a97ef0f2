import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type JsonObjectSchema, type ToolAnnotations } from '@toolshield/core';
import { DEFAULT_CIRCUIT_BREAKER_OPTIONS } from '@toolshield/core/internal';
import type { ToolHandler, ToolRegistration } from '@toolshield/nest';
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
 * are; retried only when idempotent (the server's hint or the client options); one breaker
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

function annotationsOf(annotations: NonNullable<Tool['annotations']>): ToolAnnotations {
  const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return Object.fromEntries(
    Object.entries({ title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as ToolAnnotations;
}
