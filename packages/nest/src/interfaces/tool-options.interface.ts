import type {
  BulkheadOptions,
  RateLimitOptions,
  CircuitBreakerOptions,
  JsonObjectSchema,
  ToolAnnotations,
  ToolCallContext,
} from '@toolshield/core';

/**
 * Circuit breaker settings of one tool.
 *
 * @publicApi
 */
export interface ToolBreakerOptions extends CircuitBreakerOptions {
  /**
   * Splits the tool's breaker by a key taken from the call (tenant, upstream host, ...): one
   * failing tenant then cannot open the breaker for the others.
   */
  readonly key?: (call: ToolCallContext, args: unknown) => string;
}

/**
 * Client-side rate limit of one tool. Tools that name the same `key` (the upstream they call)
 * share one limiter, configured by the module's `rateLimits[key]` and the first tool's options.
 *
 * @publicApi
 */
export interface ToolRateLimitOptions extends RateLimitOptions {
  /** The limiter's name, shared by every tool that names it (default: the tool name). */
  readonly key?: string;
}

/** Concurrency limit of one tool. @publicApi */
export type ToolBulkheadOptions = Omit<BulkheadOptions, 'toolName'>;

/**
 * Options of `@Tool()`.
 *
 * @publicApi
 */
export interface ToolOptions {
  /** Name the model calls the tool by; defaults to the method name. 1-64 of `A-Za-z0-9_-`. */
  readonly name?: string;
  /** What the tool does and when to use it: models choose tools by this text. */
  readonly description: string;
  /**
   * JSON Schema of the arguments. Defaults to the schema derived from the `@ToolArgs()` DTO
   * (class-validator decorators); give it explicitly for tools without a DTO.
   */
  readonly inputSchema?: JsonObjectSchema;
  /** MCP-style hints for clients (readOnlyHint, idempotentHint, destructiveHint, ...). */
  readonly annotations?: ToolAnnotations;
  /**
   * The tool may safely run more than once for one call: only such tools (or tools with
   * `@Retryable()`) are retried automatically. Defaults to `annotations.idempotentHint`.
   */
  readonly idempotent?: boolean;
  /** Time limit of each attempt in ms (default: the module's, 30 s); `false` for none. */
  readonly timeoutMs?: number | false;
  /** Circuit breaker settings (merged over the module's), or `false` for no breaker. */
  readonly breaker?: ToolBreakerOptions | false;
  /** Limits concurrent calls of this tool (default: no limit). */
  readonly bulkhead?: ToolBulkheadOptions;
  /**
   * Paces calls to the upstream: a rate with bursts and a queue, learned from the upstream's
   * 429s and rate-limit headers with `adaptive: true`; `false` for none (default: the module's,
   * none unless set).
   */
  readonly rateLimit?: ToolRateLimitOptions | false;
}
