import type { Clock } from '../clock/clock.js';
import type { ClassificationRule } from '../classification/classify-error.js';
import type { CircuitBreakerOptions } from '../policies/breaker/circuit-breaker-options.js';
import type { BulkheadOptions } from '../policies/bulkhead.js';
import type { RetryOptions } from '../policies/retry-policy.js';
import type { RetryBudgetStore } from '../policies/retry-budget/retry-budget-store.js';
import type { Redactor } from '../redaction/redactor.js';
import type { ToolCacheOptions } from '../cache/tool-result-cache.js';
import type { ToolCacheStore } from '../cache/tool-cache-store.js';
import type { OutputBudget } from '../output/output-budget.js';
import type { TokenEstimator } from '../output/token-estimate.js';

/**
 * How {@link shieldTool} protects one tool: the same choices `@Tool()` and `@Retryable()` offer
 * in Nest, for a function of any framework.
 *
 * @publicApi
 */
export interface ShieldOptions {
  /** The tool name, put on outcomes, errors and the breaker. */
  readonly name: string;
  /**
   * Calling it twice with the same arguments is harmless: it is retried with the default retry
   * options, and a failure after its request may have left is not reported as a possible
   * effect. Default `false`: the tool is treated as having side effects (`hasSideEffects`).
   */
  readonly idempotent?: boolean;
  /**
   * How an idempotent tool is retried (the `@Retryable()` of Nest), merged over the defaults;
   * `false` never retries it. Refused on a tool not declared `idempotent: true`: whether a
   * call may run twice is declared by `idempotent` alone.
   */
  readonly retry?: RetryOptions | false;
  /** Per-attempt time limit in ms (default `DEFAULT_TOOL_TIMEOUT_MS`, 30 s); `false` for none. */
  readonly timeoutMs?: number | false;
  /**
   * The tool's circuit breaker: options for a breaker of its own (the default, with the default
   * options), or `false` for none.
   */
  readonly breaker?: CircuitBreakerOptions | false;
  /** At most this many calls at once, and a queue; default: unlimited. */
  readonly bulkhead?: Omit<BulkheadOptions, 'toolName'>;
  /** Your own classification rules, checked before the built-in ones. */
  readonly classificationRules?: readonly ClassificationRule[];
  /** Removes secrets from failures (default: the core redactor). */
  readonly redactor?: Redactor;
  /** Default: the shared `SystemClock`. Tests pass a `VirtualClock`. */
  readonly clock?: Clock;
  /**
   * Where the retry budget (`retry.retryBudget`, on by default) is counted: give the tools that
   * call one upstream the same store and `retryBudget.key`, or a shared store
   * (`@toolshield/redis`) to count across instances. Default: a store of this tool's own.
   */
  readonly retryBudgetStore?: RetryBudgetStore;
  /** It only reads: with `idempotent`, what lets it have a `cache`. Default `false`. */
  readonly readOnly?: boolean;
  /**
   * How much of an output the model reads (default `DEFAULT_OUTPUT_BUDGET`, 25,000 tokens):
   * over it, the output is cut to valid JSON with a note saying what was left out; `false`
   * for no limit.
   */
  readonly output?: OutputBudget | false;
  /** Counts tokens for `output.maxTokens` (default `estimateTokens`: UTF-8 bytes / 4). */
  readonly estimateTokens?: TokenEstimator;
  /**
   * Reuses the tool's answers (only with `idempotent: true` and `readOnly: true`): fresh ones
   * for `ttlMs`, identical concurrent calls sharing one run, and a stale one, marked with its
   * age, standing in for a transient failure within `staleIfErrorMs`.
   */
  readonly cache?: ShieldCacheOptions;
}

/**
 * The cache of a shielded read-only tool.
 *
 * @example
 * shieldTool(search, { name: 'web_search', idempotent: true, readOnly: true, cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 } });
 * @publicApi
 */
export interface ShieldCacheOptions extends ToolCacheOptions {
  /** Where answers are kept (default: in memory, this tool's own). */
  readonly store?: ToolCacheStore;
  /** A value the entries are kept apart by (a user, a tenant); a call without one is not cached. */
  readonly scope?: (args: unknown, call: ShieldCall) => string | undefined;
}

/**
 * What the framework knows about one call of a shielded tool.
 *
 * @publicApi
 */
export interface ShieldCall {
  /** The framework's call id; one is generated when missing. */
  readonly callId?: string;
  /** The framework's abort signal: aborting it aborts the attempt's signal and ends the call `cancelled`. */
  readonly signal?: AbortSignal;
  /** Handed to the tool as `ToolCallContext.metadata`. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /**
   * The conversation (or run) the call belongs to: it scopes the default idempotency key, since
   * models number their calls per conversation (two conversations' `call_3` are not one call).
   */
  readonly conversationId?: string;
  /**
   * The call's `ToolCallContext.idempotencyKey`, the same for every attempt and carried by a
   * failure that may have taken effect. Default: `defaultIdempotencyKey`, `<conversationId>:<callId>`
   * (the same when the conversation's call is made again), or `<random UUID>:<callId>` without a
   * conversation.
   */
  readonly idempotencyKey?: string;
}
