import type {
  CircuitBreakerOptions,
  HedgingOptions,
  RateLimitOptions,
  RetryOptions,
} from '@toolshield/core';
import type { ToolOutputOption } from '../results/tool-result-options.interface.js';
import type { ToolBulkheadOptions } from './tool-options.interface.js';

/**
 * The policies every tool starts from; `@Tool()` and `@Retryable()` override them per tool,
 * and `ToolExecutor.execute()` options per call.
 *
 * @publicApi
 */
export interface ToolPolicyDefaults {
  /** Retry options of retried tools (those declared idempotent; `@Retryable()` tunes one). Default: 2 retries, decorrelated jitter from 500 ms, 10 s cap, Retry-After honoured up to 60 s. */
  readonly retry?: RetryOptions;
  /** Per-attempt time limit (default 30 s); `false` for none. */
  readonly timeoutMs?: number | false;
  /** Breaker options of every tool (default: 50 % failures over 10 s with at least 10 calls, 30 s open); `false` for no breakers. */
  readonly breaker?: CircuitBreakerOptions | false;
  /** A concurrency limit for every tool (default: none). */
  readonly bulkhead?: ToolBulkheadOptions;
  /** A rate limit for every tool, each its own limiter unless it names a key (default: none). */
  readonly rateLimit?: RateLimitOptions;
  /** Hedging of every tool that is idempotent and read-only; others are never hedged (default: none). */
  readonly hedging?: HedgingOptions;
  /** The output budget of every tool (default 25,000 tokens); `false` for none. */
  readonly output?: ToolOutputOption;
}

/** The policies a tool can have, for ordering them. @publicApi */
export type ToolPolicyName = 'retry' | 'rateLimit' | 'breaker' | 'timeout' | 'bulkhead';
