import type { ToolCallContext } from '@toolshield/core';
import type { ToolPolicies } from '../policies/tool-policies.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';

/**
 * The mutable side of one call, shared by the executor, the policy interceptors and the
 * failure filter. The tool sees only the {@link ToolCallContext} it is keyed by.
 *
 * @internal
 */
export interface ToolCallState {
  readonly tool: RegisteredTool;
  readonly startedAt: number;
  /** Aborted when the caller gives up or the application shuts down: the call is cancelled. */
  readonly callerSignal: AbortSignal;
  /** The tool's policies with the caller's overrides applied. */
  readonly policies: ToolPolicies;
  /** The parsed arguments (breaker keys may depend on them). */
  readonly args: unknown;
  /** Retries allowed after the first attempt (0 until a retry policy applies). */
  retryMax: number;
  /**
   * The signal governing the layer that runs now: the call's own (the caller's, when given)
   * outside the timeout layer, the attempt's inside it. Policies wait and queue on it, so an
   * outer timeout (a custom `policyOrder`) also ends their waits.
   */
  signal: AbortSignal;
}

/** The context object handed to the tool; its `attempt` and `signal` move with each attempt. @internal */
export interface MutableToolCallContext extends ToolCallContext {
  attempt: number;
  signal: AbortSignal;
}

const states = new WeakMap<ToolCallContext, ToolCallState>();

/** Creates the context of a new call and its state, linked. @internal */
export function openToolCall(
  identity: Pick<ToolCallContext, 'callId' | 'toolName' | 'metadata'>,
  init: Omit<ToolCallState, 'signal'>,
): { readonly call: MutableToolCallContext; readonly state: ToolCallState } {
  const signal = init.callerSignal;
  const call: MutableToolCallContext = { ...identity, attempt: 1, signal };
  const state: ToolCallState = { ...init, signal };
  states.set(call, state);
  return { call, state };
}

/** The state of the call `context` belongs to, or undefined for contexts we did not create. @internal */
export function toolCallState(context: unknown): ToolCallState | undefined {
  return typeof context === 'object' && context !== null
    ? states.get(context as ToolCallContext)
    : undefined;
}
