/** Metadata key of `@Tool()` options on a method. @internal */
export const TOOL_METADATA = 'toolshield:tool';

/**
 * The `ExecutionContext` type of a tool call: guards, interceptors, pipes and filters see
 * `context.getType() === 'tool'`.
 *
 * @publicApi
 */
export const TOOL_CONTEXT_TYPE = 'tool';

/** @publicApi */
export type ToolContextType = typeof TOOL_CONTEXT_TYPE;

/**
 * Parameter kinds of a tool method. ARGS shares its number with Nest's BODY so that
 * `ValidationPipe` validates tool arguments as it validates request bodies.
 *
 * @internal
 */
export enum ToolParamtype {
  ARGS = 3,
  CALL = 6,
}

/**
 * Token of the uniform `[0, 1)` random source behind retry jitter (default `Math.random`).
 * The chaos harness replaces it with a seeded one so a seed replays a run exactly.
 *
 * @publicApi
 */
export const TOOLSHIELD_RANDOM = Symbol('TOOLSHIELD_RANDOM');

/** Token of the {@link Clock} every policy uses. @publicApi */
export const TOOLSHIELD_CLOCK = Symbol('TOOLSHIELD_CLOCK');

/** Metadata key of `@Retryable()` options on a method. @internal */
export const RETRYABLE_METADATA = 'toolshield:retryable';
