import type { RegisteredTool } from '@toolshield/nest';

/**
 * Whether calling the tool again with the same arguments changes nothing more: `idempotent`,
 * else `annotations.idempotentHint` (what toolshield retries on).
 */
export function isIdempotentTool(tool: RegisteredTool | undefined): boolean {
  return tool?.options.idempotent ?? tool?.options.annotations?.idempotentHint ?? false;
}

/** Whether the tool is idempotent and changes nothing (`annotations.readOnlyHint`). */
export function isSafeReadTool(tool: RegisteredTool | undefined): boolean {
  return isIdempotentTool(tool) && tool?.options.annotations?.readOnlyHint === true;
}
