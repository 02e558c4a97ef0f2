/** Metadata key of `@Chaos()` rules on a tool method. @internal */
export const CHAOS_RULES_METADATA = 'toolshield:chaos-rules';
