import type {
  ClassificationRule,
  Clock,
  RateLimitOptions,
  RedactionRule,
  RetryBudgetStore,
} from '@toolshield/core';
import type { CircuitBreakerStore, RateLimitStore } from '@toolshield/core/internal';
import type { ToolApprovalsOptions } from '../approvals/tool-approval-options.interface.js';
import type { ToolShieldAgentOptions } from '../agent/toolshield-agent-options.interface.js';
import type { IdempotencyKeyFactory } from '../execution/idempotency-key.js';
import type { ToolResultModuleOptions } from '../results/tool-result-options.interface.js';
import type { ToolPolicyDefaults, ToolPolicyName } from './tool-policy-defaults.interface.js';

/**
 * Options of `ToolShieldModule.forRoot()` / `forRootAsync()`.
 *
 * @publicApi
 */
export interface ToolShieldModuleOptions extends ToolResultModuleOptions {
  /** The time source of every policy; defaults to real time. Pass a `VirtualClock` in tests. */
  readonly clock?: Clock;
  /**
   * Uniform `[0, 1)` source of retry jitter (default `Math.random`); a seeded one makes retry
   * delays reproducible. A tool's own `backoff.random` still wins.
   */
  readonly random?: () => number;
  /** Default policies of every tool. */
  readonly defaults?: ToolPolicyDefaults;
  /**
   * Named rate limits, one limiter each, shared by every tool whose `rateLimit.key` names it:
   * `{ 'search-api': { rate: 50, adaptive: true } }`.
   */
  readonly rateLimits?: Readonly<Record<string, RateLimitOptions>>;
  /**
   * The order of the policies, outermost first. Default
   * `['retry', 'rateLimit', 'breaker', 'timeout', 'bulkhead']`:
   * Retry(RateLimit(CircuitBreaker(Timeout(Bulkhead(tool))))).
   */
  readonly policyOrder?: readonly ToolPolicyName[];
  /** Where breaker states are saved and restored from (default: in memory). */
  readonly breakerStore?: CircuitBreakerStore;
  /**
   * Where rate-limit budgets are kept when several instances share them (e.g. `@toolshield/redis`):
   * every limiter then takes its slots from the store's schedule of its key. Default: each
   * instance limits on its own, in memory.
   */
  readonly rateLimitStore?: RateLimitStore;
  /**
   * Where retry budgets (`defaults.retry.retryBudget`, on by default) are counted: with a shared
   * store (`@toolshield/redis`), every instance's retries to an upstream come out of one budget.
   * Default: each instance counts on its own, in memory.
   */
  readonly retryBudgetStore?: RetryBudgetStore;
  /** Your own error mappings, tried before the built-in classifier. */
  readonly classificationRules?: readonly ClassificationRule[];
  /**
   * Your own secret shapes, redacted after the built-in ones from everything that leaves a call
   * (failures, events, telemetry): a `RegExp` hides its whole match, a `RedactionRule` says
   * what a match becomes.
   */
  readonly redactPatterns?: readonly (RegExp | RedactionRule)[];
  /** Largest argument payload accepted, in UTF-8 bytes (default 1 MiB). */
  readonly maxArgumentBytes?: number;
  /**
   * Builds each call's `ToolCallContext.idempotencyKey` when `execute()` is given none, from
   * the call id, tool name, `conversationId` and metadata; it must return a non-blank string.
   * Default `defaultIdempotencyKey`: `<conversationId>:<callId>`, or a key unique to the call
   * when no conversation is known.
   */
  readonly idempotencyKey?: IdempotencyKeyFactory;
  /** Defaults of the agent-loop providers (`ToolBatchRunner`, `AgentRunnerFactory`). */
  readonly agent?: ToolShieldAgentOptions;
  /** Where the approval requests of tools with `needsApproval` wait, and for how long. */
  readonly approvals?: ToolApprovalsOptions;
}
