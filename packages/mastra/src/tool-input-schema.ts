import type { StandardSchemaWithJSON } from '@mastra/core/schema';
import type { ToolDefinition } from '@toolshield/core';
import { acceptingSchema } from './accepting-schema.js';

/** A call's arguments, as the executor receives them. @publicApi */
export type ToolArguments = Record<string, unknown>;

/**
 * The tool's JSON Schema, sent to the model as it is and not enforced by Mastra: the
 * executor validates the arguments.
 *
 * @internal
 */
export function toolInputSchema(definition: ToolDefinition): StandardSchemaWithJSON<ToolArguments> {
  const schema = (): Record<string, unknown> => structuredClone(definition.inputSchema);
  return acceptingSchema<ToolArguments>({ input: schema, output: schema });
}
