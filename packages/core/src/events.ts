/**
 * @toolshield/core/events: what toolshield emits about each call (`ToolExecutor.events$` in
 * `@toolshield/nest`): one event type per step, discriminated by `type`.
 *
 * @packageDocumentation
 */
export * from './events/index.js';
export type { RateLimitEvent } from './policies/index.js';
export type {
  ToolApprovalRef,
  ToolCallMetadata,
  ValidationIssue,
  ToolErrorType,
  ToolFailure,
  ToolResult,
} from './index.js';
