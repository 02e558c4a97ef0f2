import { hasSideEffects } from '@toolshield/core/agent';
import type { RegisteredTool } from '@toolshield/nest';

/** Whether calling the tool again with the same arguments changes nothing more (core's `hasSideEffects`). */
export function hasNoSideEffects(tool: RegisteredTool | undefined): boolean {
  return tool !== undefined && !hasSideEffects(tool.options);
}

/** Whether the tool has no side effects and changes nothing (`annotations.readOnlyHint`). */
export function isSafeReadTool(tool: RegisteredTool | undefined): boolean {
  return hasNoSideEffects(tool) && tool?.options.annotations?.readOnlyHint === true;
}

/**
 * Tools that are not idempotent but send the call's `idempotencyKey` to an upstream that
 * answers a repeated key with its first result (`pay_invoice`): made again after a crash with
 * the interrupted call's key, they take effect once.
 */
const DEDUPLICATED_BY_KEY: ReadonlySet<string> = new Set(['pay_invoice']);

/**
 * Whether an interrupted call of the tool may simply be made again after a crash: the tool is
 * idempotent, or its upstream deduplicates the call by its idempotency key.
 */
export function isSafeToRepeat(tool: RegisteredTool | undefined): boolean {
  return hasNoSideEffects(tool) || (tool !== undefined && DEDUPLICATED_BY_KEY.has(tool.name));
}
