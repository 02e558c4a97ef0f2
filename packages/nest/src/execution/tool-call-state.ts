import {
  type AbortSignalLike,
  defaultIdempotencyKey,
  type ToolCallContext,
  type HeadersLike,
} from '@toolshield/core';
import {
  callBudget,
  type AbandonedAttempt,
  type AbortSource,
  type CallBudget,
} from '@toolshield/core/internal';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';
import type { LiveCall } from './live-calls.js';

/**
 * The mutable side of one call, shared by the executor, the policy layers and the
 * failure filter. The tool sees only the {@link ToolCallContext} that carries it.
 *
 * @internal
 */
export interface ToolCallState {
  readonly tool: RegisteredTool;
  readonly startedAt: number;
  /** Aborted when the caller gives up or the application shuts down: the call is cancelled. */
  readonly lifetime: LiveCall;
  /** The tool's policies with the caller's overrides applied. */
  readonly policies: ToolPolicies;
  /** The parsed arguments (breaker keys may depend on them). */
  readonly args: unknown;
  /** The end of the retry budget: every attempt ends by then (undefined when unlimited). */
  readonly budget?: CallBudget;
  /** Retries allowed after the first attempt (0 until a retry policy applies). */
  retryMax: number;
  /** The retry budget withheld a retry: the failure says so. */
  retriesWithheld: boolean;
  /**
   * The signal governing the layer that runs now: the call's own (the caller's, when given)
   * outside the timeout layer, the attempt's inside it. Policies wait and queue on it, so an
   * outer timeout (a custom `policyOrder`) also ends their waits. The timeout layer sets it
   * for what runs inside it; the retry layer puts its own back before each attempt.
   */
  signal: AbortSignalLike;
  /** Headers of the upstream's response that the current attempt passed on, for rate limits. */
  upstreamHeaders?: HeadersLike;
  /** Facts a policy adds to the result's metadata (hedging's `hedge`), set by each success. */
  resultMetadata?: Readonly<Record<string, unknown>>;
  /**
   * The attempt the caller's abort left running, set by the timeout layer when that happens,
   * so the breaker can keep a half-open trial slot until that attempt has settled.
   */
  abandoned: AbandonedAttempt | undefined;
  /**
   * The breaker counts this call once, not each attempt: set when the call may be retried, so
   * the breaker hands a failed attempt's count here, and it waits in `pendingFailure` until
   * the call has failed for good (see `BreakerCallOptions.deferFailure`).
   */
  readonly deferFailure: ((this: ToolCallState, count: () => void) => void) | undefined;
  /** The last failed attempt's breaker count, run by the executor if the call fails. */
  pendingFailure: (() => void) | undefined;
  /** The method's parameters as Nest resolved them (pipes applied), which each attempt passes. */
  methodParams?: unknown[];
}

/** The context object handed to the tool; its `attempt` and `signal` move with each attempt. @internal */
export interface MutableToolCallContext extends ToolCallContext {
  attempt: number;
  /** The running attempt's cancellation, whose `signal` is the tool's `call.signal` (made when read). */
  attemptSource: AbortSource | undefined;
}

/**
 * The context a tool receives. Its state rides along in a private field, which is cheaper on
 * every call than a side table and invisible to the tool (and to `JSON.stringify`).
 */
class CallContext implements MutableToolCallContext {
  attempt = 1;
  readonly #state: ToolCallState;
  #attemptSource: AbortSource | undefined = undefined;
  #idempotencyKey: string | undefined;

  constructor(
    readonly callId: string,
    readonly toolName: string,
    readonly metadata: Readonly<Record<string, unknown>>,
    idempotencyKey: string | undefined,
    state: ToolCallState,
  ) {
    this.#idempotencyKey = idempotencyKey;
    this.#state = state;
  }

  /** The call's key; without one given, made unique to the call when first read. */
  get idempotencyKey(): string {
    return (this.#idempotencyKey ??= defaultIdempotencyKey({ callId: this.callId }));
  }

  /** The running attempt's signal; before any, the call's own. Made when first read. */
  get signal(): AbortSignal {
    return (this.#attemptSource ?? this.#state.lifetime).signal;
  }

  get attemptSource(): AbortSource | undefined {
    return this.#attemptSource;
  }

  set attemptSource(source: AbortSource | undefined) {
    this.#attemptSource = source;
  }

  reportUpstreamHeaders(headers: HeadersLike): void {
    this.#state.upstreamHeaders = headers;
  }

  static stateOf(context: unknown): ToolCallState | undefined {
    return context instanceof CallContext ? context.#state : undefined;
  }
}

/** A call's `deferFailure`: one function for every call, which the breaker calls on its state. */
function keepPendingFailure(this: ToolCallState, count: () => void): void {
  this.pendingFailure = count;
}

/** Creates the context of a new call and its state, linked. @internal */
export function openToolCall(
  identity: Pick<ToolCallContext, 'callId' | 'toolName' | 'metadata' | 'idempotencyKey'>,
  init: Omit<
    ToolCallState,
    'signal' | 'budget' | 'abandoned' | 'deferFailure' | 'pendingFailure' | 'retriesWithheld'
  >,
): { readonly call: MutableToolCallContext; readonly state: ToolCallState } {
  // Spelled out rather than spread: this runs on every call, and literals of a fixed shape
  // are cheaper to build and to read than spread copies.
  const state: ToolCallState = {
    tool: init.tool,
    startedAt: init.startedAt,
    lifetime: init.lifetime,
    policies: init.policies,
    args: init.args,
    budget: callBudget(init.policies.retry?.budgetMs, init.startedAt),
    retryMax: init.retryMax,
    retriesWithheld: false,
    signal: init.lifetime,
    abandoned: undefined,
    deferFailure: init.policies.retry === undefined ? undefined : keepPendingFailure,
    pendingFailure: undefined,
  };
  const call = new CallContext(
    identity.callId,
    identity.toolName,
    identity.metadata,
    identity.idempotencyKey,
    state,
  );
  return { call, state };
}

/** The state of the call `context` belongs to, or undefined for contexts we did not create. @internal */
export function toolCallState(context: unknown): ToolCallState | undefined {
  return CallContext.stateOf(context);
}
