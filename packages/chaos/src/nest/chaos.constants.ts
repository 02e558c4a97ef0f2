/** Metadata key of `@Chaos()` rules on a tool method. @internal */
export const CHAOS_RULES_METADATA = 'toolshield:chaos-rules';

/**
 * Metadata key under which `@Tool()` of `@toolshield/nest` keeps its options; `@Chaos()`
 * rules are scoped to the tool name found there (or the method's name).
 *
 * @internal
 */
export const TOOL_OPTIONS_METADATA = 'toolshield:tool';
