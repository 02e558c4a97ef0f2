/**
 * @toolshield/nest: resilient LLM tools as NestJS providers.
 *
 * @packageDocumentation
 */
export * from './decorators/index.js';
export * from './interfaces/index.js';
export { ToolShieldModule } from './toolshield.module.js';
export { ToolShieldModuleBase } from './toolshield-module-base.js';
export {
  TOOL_CONTEXT_TYPE,
  TOOLSHIELD_CLOCK,
  TOOLSHIELD_RANDOM,
  type ToolContextType,
} from './toolshield.constants.js';
export { ToolRegistry } from './registry/tool.registry.js';
export type { RegisteredTool } from './registry/registered-tool.interface.js';
export type { ToolRegistryChange } from './registry/tool-registry-change.interface.js';
export { ToolRegistrar } from './registration/tool.registrar.js';
export type {
  RegisteredToolHandle,
  ToolHandler,
  ToolRegistration,
} from './registration/tool-registration.interface.js';
export { ToolExecutor } from './execution/tool-executor.service.js';
export type { ExecuteOptions } from './execution/execute-options.interface.js';
export {
  DEFAULT_APPROVAL_TTL_MS,
  type ApprovedCall,
  type NeedsApproval,
  type ToolApprovalsOptions,
} from './approvals/tool-approval-options.interface.js';
export { mayNeedApproval } from './approvals/tool-approval-gate.js';
export type { ExpiredApproval } from './approvals/tool-approvals.js';
export {
  defaultIdempotencyKey,
  ToolError,
  ToolTimeoutError,
  RateLimitedError,
  NetworkError,
  UpstreamUnavailableError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  ConflictError,
  CancelledError,
  LimitExceededError,
  InvalidOutputError,
  InternalToolError,
  sleep,
  systemClock,
  type ToolErrorOptions,
  type InvalidInputErrorOptions,
  type ValidationIssue,
  type ToolErrorType,
  type ToolCallContext,
  type ToolCallRequest,
  type ToolResult,
  type ToolFailure,
  type ToolOutcome,
  type ToolCallMetadata,
  type Clock,
} from '@toolshield/core';
export { DEFAULT_COMPLETION_TOOL } from '@toolshield/core/agent';
export { type ToolEvent } from '@toolshield/core/events';
export { DEFAULT_TOOL_TIMEOUT_MS } from '@toolshield/core/internal';
export type { IdempotencyKeyFactory, IdempotencyKeyRequest } from './execution/idempotency-key.js';
export type { FallbackMetadata } from './execution/tool-fallback.js';
export { ToolExecutionContext } from './execution/tool-execution-context.js';
export { ToolPipeline, DEFAULT_POLICY_ORDER } from './invocation/tool-pipeline.js';
export {
  ToolCircuitBreakers,
  type ToolBreakerState,
  type ToolBreakerView,
} from './policies/tool-circuit-breakers.service.js';
export { ToolRateLimiters } from './policies/tool-rate-limiters.service.js';
export type { HedgeMetadata } from './policies/layers/hedging.layer.js';
export { currentToolCall } from './policies/hedging/current-tool-call.js';
export * from './agent/index.js';
export { assertToolOptions } from './options/assert-tool-options.js';
export type {
  ToolCacheSettings,
  ToolOutputOption,
  ToolResultModuleOptions,
  ReadMoreToolOptions,
} from './results/tool-result-options.interface.js';
export type { CacheMetadata } from './results/cache.layer.js';
export type { OutputMetadata } from './results/output.layer.js';
export { READ_TOOL_OUTPUT } from './results/read-tool-output.constants.js';
/** What a tool file needs from @toolshield/core, so that it imports from @toolshield/nest alone. */
