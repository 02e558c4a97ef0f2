/** Instrumentation scope of toolshield's tracer and meter. @publicApi */
export const TOOLSHIELD_INSTRUMENTATION_SCOPE = '@toolshield/nest';

/**
 * Attribute names: the OpenTelemetry GenAI conventions for tool execution where they have
 * one, `toolshield.*` for the rest.
 *
 * @publicApi
 */
export const ToolShieldAttributes = Object.freeze({
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  ERROR_TYPE: 'error.type',
  ATTEMPT: 'toolshield.attempt',
  ATTEMPTS: 'toolshield.attempts',
  RETRY_COUNT: 'toolshield.retry_count',
  RECOVERABLE: 'toolshield.recoverable',
  RETRY_AFTER_MS: 'toolshield.retry_after_ms',
  CHAOS: 'toolshield.chaos',
  CHAOS_FAULT: 'toolshield.chaos.fault',
  BREAKER_FROM: 'toolshield.breaker.from',
  BREAKER_TO: 'toolshield.breaker.to',
  OUTCOME: 'toolshield.outcome',
  BREAKER_KEY: 'toolshield.breaker.key',
  BREAKER_STATE: 'toolshield.breaker.state',
  RATE_LIMIT_KEY: 'toolshield.rate_limit.key',
  CHAOS_RULE: 'toolshield.chaos.rule',
  RETRY_BUDGET_KEY: 'toolshield.retry_budget.key',
  /** How a call met its tool's cache: `hit`, `miss`, `joined`, `stale`. */
  CACHE_RESULT: 'toolshield.cache.result',
  /** On a call span whose `gen_ai.tool.name` is {@link UNKNOWN_TOOL_LABEL}: the name the model asked for. */
  REQUESTED_TOOL_NAME: 'toolshield.tool.requested_name',
});

/**
 * The `gen_ai.tool.name` of calls of tools that are not registered: the name comes from the
 * model, and each invented name would otherwise be a new metric series and span name.
 *
 * @publicApi
 */
export const UNKNOWN_TOOL_LABEL = '_unknown';

/** `gen_ai.operation.name` of a tool call. @publicApi */
export const EXECUTE_TOOL_OPERATION = 'execute_tool';

/** Metric names (the call duration is the GenAI convention's). @publicApi */
export const ToolShieldMetrics = Object.freeze({
  CALL_DURATION: 'gen_ai.execute_tool.duration',
  ATTEMPTS: 'toolshield.tool.attempts',
  RETRIES: 'toolshield.tool.retries',
  RETRIES_WITHHELD: 'toolshield.tool.retries_withheld',
  BREAKER_TRANSITIONS: 'toolshield.breaker.transitions',
  CALLS: 'toolshield.tool.calls',
  ATTEMPT_DURATION: 'toolshield.tool.attempt.duration',
  BREAKER_STATE: 'toolshield.breaker.state',
  RATE_LIMIT_WAITS: 'toolshield.rate_limit.waits',
  RATE_LIMIT_WAIT_DURATION: 'toolshield.rate_limit.wait.duration',
  RATE_LIMIT_REFUSALS: 'toolshield.rate_limit.refusals',
  RATE_LIMIT_RATE: 'toolshield.rate_limit.rate',
  CHAOS_INJECTIONS: 'toolshield.chaos.injections',
  CACHE_LOOKUPS: 'toolshield.cache.lookups',
  OUTPUT_CUTS: 'toolshield.output.cuts',
});
