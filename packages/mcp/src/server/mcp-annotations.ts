import type { ToolAnnotations } from '@toolshield/core';
import type { ToolOptions } from '@toolshield/nest';

/**
 * The MCP annotations of a tool: its own `annotations`, with `idempotentHint` following the
 * `idempotent` option (which is what decides whether toolshield retries it). Hints left
 * unset are left out: MCP clients then assume their defaults.
 *
 * @internal
 */
export function mcpAnnotationsOf(options: ToolOptions): ToolAnnotations | undefined {
  const idempotentHint = options.idempotent ?? options.annotations?.idempotentHint;
  const annotations: ToolAnnotations = {
    ...options.annotations,
    ...(idempotentHint === undefined ? {} : { idempotentHint }),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}
