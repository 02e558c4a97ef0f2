/**
 * @toolshield/core: what an app writes with toolshield without a framework: the error taxonomy,
 * results and failures, the clock, the policies' options, `shieldTool` and the renderings.
 * The agent loop is `@toolshield/core/agent`, the events `@toolshield/core/events`, approval
 * stores `@toolshield/core/approvals`, test helpers `@toolshield/core/testing`.
 *
 * @packageDocumentation
 */
export {
  ToolError,
  type ToolErrorOptions,
  ToolErrorType,
  ToolTimeoutError,
  RateLimitedError,
  NetworkError,
  UpstreamUnavailableError,
  CircuitOpenError,
  BulkheadFullError,
  InvalidInputError,
  type InvalidInputErrorOptions,
  NotFoundError,
  PermissionDeniedError,
  ConflictError,
  CancelledError,
  LimitExceededError,
  InvalidOutputError,
  InternalToolError,
  isToolError,
  type ValidationIssue,
  ApprovalPendingError,
  ApprovalError,
  type ApprovalErrorOptions,
  ApprovalDeniedError,
  ApprovalExpiredError,
} from './errors/index.js';
export { InvalidOptionsError, type OptionIssue } from './options/index.js';
export {
  classifyError,
  type ClassifyErrorOptions,
  type ClassificationRule,
  type HeadersLike,
} from './classification/index.js';
export {
  type ToolResult,
  type ToolFailure,
  type ToolOutcome,
  type ToolCallMetadata,
  createToolResult,
  isToolFailure,
  type ToolCallContext,
  type ToolCallRequest,
  defaultIdempotencyKey,
  type ToolOutcomeContext,
} from './results/index.js';
export {
  type RetryInfo,
  type RetryOptions,
  type RetryOn,
  type BackoffOptions,
  type BackoffJitter,
  type CircuitBreakerOptions,
  type BreakerOpeningRule,
  type OpeningRuleCounts,
  openingRules,
  type RateLimitOptions,
  type RateLimitEvent,
  type RateController,
  type RateDecision,
  type UpstreamAnswer,
  type UpstreamRateSignals,
  type AdaptiveRateOptions,
  type BulkheadOptions,
  type HedgingOptions,
  type HedgingPercentile,
  type RetryBudgetOptions,
  type ResolvedCircuitBreakerOptions,
  type RetryBudgetStore,
  type RetryBudgetSettings,
  type RetryPredicate,
} from './policies/index.js';
export {
  type RedactionRule,
  type Redactor,
  type RedactionReplacement,
  createRedactor,
} from './redaction/index.js';
export {
  type Clock,
  type CancelTimer,
  systemClock,
  sleep,
  type AbortSignalLike,
  type AbortListener,
} from './clock/index.js';
export {
  shieldTool,
  type ShieldOptions,
  type ShieldCacheOptions,
  type ShieldCall,
  type ShieldedTool,
  type ToolCatalog,
  type ToolCatalogOptions,
} from './shield/index.js';
export {
  type ToolDefinition,
  type JsonObjectSchema,
  type ToolAnnotations,
  renderFailureText,
  renderOutcomeJson,
  type OutcomeRenderOptions,
  type FailureFormat,
} from './rendering/index.js';
export { renderToolOutcomeContent, type ToolOutcomeRenderer } from './agent/index.js';
export {
  type ToolApprovalPolicy,
  type ToolApprovalRef,
} from './approvals/index.js';
export {
  type OutputBudget,
  DEFAULT_OUTPUT_BUDGET,
  type NotedOutput,
  type OutputCut,
  type JsonCutSummary,
  type OutputPage,
  type TokenEstimator,
  estimateTokens,
} from './output/index.js';
export {
  type ToolCacheOptions,
  type ToolCacheStore,
  type ToolCacheEntry,
  type ToolCacheLookup,
  type ToolCacheMetadata,
  type ToolCacheAnswer,
  InMemoryToolCacheStore,
  type InMemoryToolCacheStoreOptions,
} from './cache/index.js';
