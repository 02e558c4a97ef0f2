import type { ToolAnnotations } from '@toolshield/core';
import type { ToolOptions } from '@toolshield/nest';

/**
 * The MCP annotations of a tool: its own `annotations`, and `idempotentHint: true` published
 * from `idempotent: true` (the one declaration that the tool is safe to repeat). Hints left
 * unset are left out: MCP clients then assume their defaults (not idempotent).
 *
 * @internal
 */
export function mcpAnnotationsOf(options: ToolOptions): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {
    ...options.annotations,
    ...(options.idempotent === true ? { idempotentHint: true } : {}),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}
