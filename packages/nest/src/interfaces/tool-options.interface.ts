import type { NeedsApproval } from '../approvals/tool-approval-options.interface.js';
import type {
  BulkheadOptions,
  HedgingOptions,
  RateLimitOptions,
  CircuitBreakerOptions,
  JsonObjectSchema,
  ToolAnnotations,
  ToolCallContext,
  ToolErrorType,
} from '@toolshield/core';
import type {
  ToolCacheSettings,
  ToolOutputOption,
} from '../results/tool-result-options.interface.js';

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
  /**
   * Name of the breaker (no `:`); tools giving the same name share one breaker, e.g. every
   * tool of one remote server, so a dead server fails all its tools fast. The first tool to
   * use a shared breaker creates it with its settings. Default: the tool's own name.
   */
  readonly name?: string;
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

/**
 * What a tool's call returns instead of a failure of the given types: a fixed value, or
 * another tool's result. The outcome says so (`metadata.fallback`), so the model is never
 * misled into taking a stand-in for the real answer.
 *
 * @example
 * // A cached forecast when the weather service is down:
 * { on: ['upstream_unavailable', 'circuit_open', 'timeout'], tool: 'cached_weather' }
 * @publicApi
 */
export interface ToolFallbackOptions {
  /** The failure types that fall back (after the tool's own retries). */
  readonly on: readonly ToolErrorType[];
  /** The output to return instead (plain JSON). */
  readonly value?: unknown;
  /** Another tool to call instead, with the same arguments unless `args` maps them. */
  readonly tool?: string;
  /** The fallback tool's arguments, from the original ones. */
  readonly args?: (args: unknown) => unknown;
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
  /**
   * MCP-style hints for clients (`readOnlyHint`, `destructiveHint`, `openWorldHint`, `title`).
   * `idempotentHint` is not one of them: it is published from `idempotent`.
   */
  readonly annotations?: Omit<ToolAnnotations, 'idempotentHint'>;
  /**
   * The tool may safely run more than once for one call, the one declaration of it: such a
   * tool is retried (as `@Retryable()` says, else with the module's retry options), may be
   * hedged or cached when also read-only, is answered as safe to repeat after a crash, and is
   * published to MCP clients with `idempotentHint: true`. Default `false`: the tool runs once.
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
  /** What to return instead of a failure of the given types (default: the failure). */
  readonly fallback?: ToolFallbackOptions;
  /**
   * When an attempt is slow (past a fixed delay, or a percentile of the tool's recent calls),
   * a second one starts; the first result wins and the other's signal is aborted. Only for
   * tools that are idempotent and read-only (`idempotent: true` and
   * `annotations.readOnlyHint: true`): both attempts may reach the upstream, and startup
   * refuses it on any other tool. `false` opts out of the module's default (default: none).
   *
   * @example
   * // A second request once the first has taken longer than 95 % of recent calls did,
   * // for at most one call in ten:
   * hedging: { delayMs: 'p95', maxExtraShare: 0.1 }
   */
  readonly hedging?: HedgingOptions | false;
  /**
   * This instance cannot serve without the tool: while its breaker is open, the readiness check
   * of `@toolshield/nest/health` is `down`. Other tools' open breakers leave readiness `up`
   * (reported as `degraded`). Default `false`.
   */
  readonly critical?: boolean;
  /**
   * A person approves each call (`true`), or the calls this function picks (it gets the
   * validated arguments), before it runs. Such a call does not run: it ends in an
   * `approval_pending` failure with the approval's id, and `ToolExecutor.resolveApproval`
   * runs it once when a person approves (or ends it `approval_denied`). Default: never.
   *
   * @example
   * needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000
   */
  readonly needsApproval?: NeedsApproval<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the tool's own arguments type
  /**
   * How much of an output the model reads: over budget it is cut to valid JSON with a note
   * saying what was left out; `false` for no limit. Default: the module's `defaults.output`,
   * else 25,000 tokens.
   *
   * @example
   * output: { maxTokens: 4_000 }
   */
  readonly output?: ToolOutputOption;
  /**
   * Reuses the tool's answers: fresh for `ttlMs`, identical concurrent calls sharing one run,
   * and a stale answer standing in for a transient failure within `staleIfErrorMs`. Only for
   * tools that are idempotent and read-only; startup refuses it on others. Default: none.
   *
   * @example
   * cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 }
   */
  readonly cache?: ToolCacheSettings;
}
