import type { ToolErrorType } from '../errors/tool-error-type.js';
import type { ToolApprovalRef } from '../approvals/approval-record.js';
import type { ToolFailure, ToolResult } from '../results/tool-outcome.js';

/** What every event carries. @publicApi */
export interface ToolEventBase {
  /** Clock time of the event, in ms since the epoch. */
  readonly at: number;
}

/** What every event about one call carries. @publicApi */
export interface CallEventBase extends ToolEventBase {
  /** The call's id. */
  readonly callId: string;
  /** The tool's registered name. */
  readonly tool: string;
}

/** A call entered the executor. Exactly one terminal event follows. @publicApi */
export interface ToolCallStartedEvent extends CallEventBase {
  readonly type: 'call.started';
}

/** One attempt failed (the call may still be retried). @publicApi */
export interface ToolAttemptFailedEvent extends CallEventBase {
  readonly type: 'attempt.failed';
  readonly attempt: number;
  /** When the attempt started (the first one with the call), so it lasted `at - startedAt`. */
  readonly startedAt: number;
  readonly errorType: ToolErrorType;
  readonly message: string;
  readonly chaos?: boolean;
}

/** A retry was scheduled after `delayMs`. @publicApi */
export interface ToolRetryScheduledEvent extends CallEventBase {
  readonly type: 'retry.scheduled';
  /** The attempt that will run next (2 for the first retry). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly errorType: ToolErrorType;
}

/**
 * The upstream's retry budget was spent, so a retry the policy would have made was withheld:
 * the call ends at once with the attempt's failure. @publicApi
 */
export interface ToolRetryWithheldEvent extends CallEventBase {
  readonly type: 'retry.withheld';
  /** The attempt that failed (1 for the first call); its retry was not made. */
  readonly attempt: number;
  /** The retry budget's key: the upstream (breaker, named rate limit, or the tool). */
  readonly key: string;
  readonly errorType: ToolErrorType;
}

/** Terminal: the call succeeded. @publicApi */
export interface ToolCallSucceededEvent extends CallEventBase {
  readonly type: 'call.succeeded';
  readonly result: ToolResult;
}

/** Terminal: the call failed. @publicApi */
export interface ToolCallFailedEvent extends CallEventBase {
  readonly type: 'call.failed';
  readonly failure: ToolFailure;
}

/** @publicApi */
export type CircuitState = 'closed' | 'open' | 'half_open' | 'isolated';

/** A circuit breaker changed state. @publicApi */
export interface BreakerStateChangedEvent extends ToolEventBase {
  readonly type: 'breaker.state_changed';
  readonly tool: string;
  /** The breaker's key (the tool name unless keyed per tenant, host, ...). */
  readonly key: string;
  readonly from: CircuitState;
  readonly to: CircuitState;
}

/** The chaos package injected a fault. @publicApi */
export interface ChaosInjectedEvent extends CallEventBase {
  readonly type: 'chaos.injected';
  readonly fault: string;
  readonly rule?: string;
}

/** A call waits its turn at a client-side rate limiter. @publicApi */
export interface RateLimitWaitingEvent extends CallEventBase {
  readonly type: 'rate_limit.waiting';
  /** The limiter's key (the tool name, or the upstream it names). */
  readonly key: string;
  /** How long it expects to wait. */
  readonly waitMs: number;
}

/** A client-side rate limiter refused a call: its wait would pass its deadline. @publicApi */
export interface RateLimitRefusedEvent extends CallEventBase {
  readonly type: 'rate_limit.refused';
  readonly key: string;
  readonly retryAfterMs: number;
}

/** An adaptive rate limiter changed its rate, or paused every caller. @publicApi */
export interface RateLimitChangedEvent extends ToolEventBase {
  readonly type: 'rate_limit.changed';
  readonly key: string;
  /** Calls per second from now on. */
  readonly rate: number;
  /** Why: `the upstream refused a call`, `slow start`, `paused until ...`. */
  readonly reason: string;
}

/**
 * A hedged tool's attempt was slow: a second one started (idempotent, read-only tools with
 * `hedging`). @publicApi
 */
export interface HedgeSentEvent extends CallEventBase {
  readonly type: 'hedge.sent';
  /** The attempt (of the retries) that was hedged. */
  readonly attempt: number;
  /** How long the first one had run. */
  readonly delayMs: number;
}

/** The second attempt of a hedged call answered first; the other was aborted. @publicApi */
export interface HedgeWonEvent extends CallEventBase {
  readonly type: 'hedge.won';
  readonly attempt: number;
}

/** What every approval event carries. @publicApi */
export interface ApprovalEventBase extends CallEventBase {
  readonly approvalId: string;
  /** The conversation (agent run) of the call, when the caller named one. */
  readonly conversationId?: string;
}

/**
 * A call needs a person's approval: it did not run and waits under `approvalId`. Ends the
 * call for now (its outcome is the `approval_pending` failure); the decision's outcome follows
 * from `resolveApproval`. @publicApi
 */
export interface ApprovalRequestedEvent extends ApprovalEventBase {
  readonly type: 'approval.requested';
  /** What to show the person deciding: the redacted arguments, the expiry, the key. */
  readonly approval: ToolApprovalRef;
}

/** A person approved a waiting call; it runs now, once. @publicApi */
export interface ApprovalApprovedEvent extends ApprovalEventBase {
  readonly type: 'approval.approved';
  readonly by?: string;
  readonly reason?: string;
}

/** A person declined a waiting call; it ends in an `approval_denied` failure. @publicApi */
export interface ApprovalDeniedEvent extends ApprovalEventBase {
  readonly type: 'approval.denied';
  readonly by?: string;
  readonly reason?: string;
}

/** Nobody decided on a waiting call in time; it ends in an `approval_expired` failure. @publicApi */
export interface ApprovalExpiredEvent extends ApprovalEventBase {
  readonly type: 'approval.expired';
}

/** @publicApi */
export type ApprovalEvent =
  ApprovalRequestedEvent | ApprovalApprovedEvent | ApprovalDeniedEvent | ApprovalExpiredEvent;

/**
 * Everything the executor reports, as one discriminated union.
 *
 * @publicApi
 */
export type ToolEvent =
  | ToolCallStartedEvent
  | ToolAttemptFailedEvent
  | ToolRetryScheduledEvent
  | ToolRetryWithheldEvent
  | ToolCallSucceededEvent
  | ToolCallFailedEvent
  | BreakerStateChangedEvent
  | ChaosInjectedEvent
  | RateLimitWaitingEvent
  | RateLimitRefusedEvent
  | RateLimitChangedEvent
  | HedgeSentEvent
  | HedgeWonEvent
  | ApprovalEvent;

/** @publicApi */
export type ToolEventType = ToolEvent['type'];

/** Whether an event ends a call. @publicApi */
export function isTerminalToolEvent(
  event: ToolEvent,
): event is ToolCallSucceededEvent | ToolCallFailedEvent {
  return event.type === 'call.succeeded' || event.type === 'call.failed';
}
