import type { ToolAnnotations } from '../rendering/tool-definition.js';

/**
 * What a tool declares about repeating it: the `idempotent` option and the MCP hints, as
 * `@Tool()`, code registration, MCP servers and `shieldTool` give them.
 *
 * @publicApi
 */
export interface SideEffectHints {
  /** Calling it twice with the same arguments is harmless (toolshield then retries it). */
  readonly idempotent?: boolean;
  readonly annotations?: Pick<
    ToolAnnotations,
    'readOnlyHint' | 'idempotentHint' | 'destructiveHint'
  >;
}

/**
 * Whether a call of the tool has an effect that a repeat could make twice: `false` for a tool
 * that changes nothing (`annotations.readOnlyHint: true`) or is idempotent (`idempotent`,
 * else `annotations.idempotentHint`); `true` for every other tool, one that says nothing
 * included (MCP's defaults: not read-only, not idempotent). `destructiveHint` tells how bad
 * an effect is, not whether a repeat is safe: a delete is destructive and idempotent, a
 * create neither. A failure of such a tool after its request may have reached the upstream
 * (a timeout, a connection dropped after sending, a cancellation) tells the model that it
 * may have taken effect (`ToolFailure.effect: 'unknown'`) instead of advising a retry.
 *
 * @example
 * hasSideEffects({ annotations: { destructiveHint: true, idempotentHint: false } }); // true
 * hasSideEffects({ idempotent: true }); // false
 * @publicApi
 */
export function hasSideEffects(tool: SideEffectHints): boolean {
  if (tool.annotations?.readOnlyHint === true) return false;
  return !(tool.idempotent ?? tool.annotations?.idempotentHint ?? false);
}
