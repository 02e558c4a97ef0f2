import type {
  HedgingOptions,
  RateLimitOptions,
  CircuitBreakerOptions,
  RetryOptions,
  ToolCallContext,
  OutputBudget,
} from '@toolshield/core';
import type { Bulkhead, RetryPolicy } from '@toolshield/core/internal';
import type { ToolCacheSettings } from '../results/tool-result-options.interface.js';

/** A tool's breaker settings, resolved. @internal */
export interface ToolBreakerPolicy {
  readonly options: CircuitBreakerOptions;
  readonly key?: (call: ToolCallContext, args: unknown) => string;
  /** The breaker's name when tools share it; the tool's name otherwise. */
  readonly name?: string;
}

/** A tool's rate limit, resolved: the limiter's key and the tool's own settings. @internal */
export interface ToolRateLimitPolicy {
  readonly key: string;
  readonly options: RateLimitOptions;
}

/** A tool's hedging, resolved (the tool is idempotent and read-only). @internal */
export interface ToolHedgingPolicy {
  readonly options: HedgingOptions;
}

/**
 * The policies of one tool, resolved once at bootstrap from the module defaults, `@Tool()`
 * and `@Retryable()`. An absent policy is not applied at all.
 *
 * @internal
 */
export interface ToolPolicies {
  readonly retry?: RetryPolicy;
  readonly breaker?: ToolBreakerPolicy;
  readonly timeoutMs?: number;
  readonly bulkhead?: Bulkhead;
  readonly rateLimit?: ToolRateLimitPolicy;
  readonly hedging?: ToolHedgingPolicy;
  /** The output budget (none: the model reads the whole output). */
  readonly output?: OutputBudget;
  /** The cache of a read-only tool. */
  readonly cache?: ToolCacheSettings;
  /** The caller's longest wait at the rate limiter, for this call. */
  readonly rateLimitMaxWaitMs?: number;
}

/** What the caller may change for one call. @internal */
export interface CallPolicyOverrides {
  readonly timeoutMs?: number | false;
  readonly retry?: RetryOptions | false;
  readonly rateLimitMaxWaitMs?: number;
}
