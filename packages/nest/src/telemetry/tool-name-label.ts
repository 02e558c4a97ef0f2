import type { ToolRegistry } from '../registry/tool.registry.js';
import { UNKNOWN_TOOL_LABEL } from './telemetry.constants.js';

/** The `gen_ai.tool.name` a tool name is recorded under. */
export type ToolNameLabel = (name: string) => string;

/**
 * A tool's own name when a tool of that name is registered, else {@link UNKNOWN_TOOL_LABEL}:
 * the names of calls come from the model, so only the registry bounds them. (A call that
 * outlives its tool's removal ends under the fixed label too.)
 *
 * @internal
 */
export function toolNameLabel(registry: Pick<ToolRegistry, 'get'>): ToolNameLabel {
  return (name) => (registry.get(name) === undefined ? UNKNOWN_TOOL_LABEL : name);
}
