import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  CancelledError,
  createToolResult,
  type Clock,
  type ToolCallRequest,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
import type { ApprovalRecord, ApprovalResolution } from '@toolshield/core/approvals';
import { type ChaosInjectedEvent, type ToolEvent } from '@toolshield/core/events';
import {
  ToolNotFoundError,
  assertSerializableOutput,
  capToolName,
  parseToolArguments,
  suggestToolNames,
} from '@toolshield/core/internal';
import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import type { RegisteredTool } from '../registry/registered-tool.interface.js';
import { applyCallOverrides } from '../policies/tool-policies.js';
import { assertExecuteOptions } from '../options/execute-options.rule.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import type { ExecuteOptions } from './execute-options.interface.js';
import { idempotencyKeyOf } from './idempotency-key.js';
import { LiveCalls, type LiveCall } from './live-calls.js';
import {
  openToolCall,
  type MutableToolCallContext,
  type ToolCallState,
} from './tool-call-state.js';
import { ToolEventBus } from './tool-event-bus.js';
import { applyFallback } from './tool-fallback.js';
import { ToolFailureEnvelope } from './tool-failure-envelope.js';
import { ToolFailureFactory, effectFacts } from './tool-failure.factory.js';
import { ToolApprovalGate } from '../approvals/tool-approval-gate.js';
import { ToolApprovals, type ExpiredApproval } from '../approvals/tool-approvals.js';

/**
 * Runs tool calls as a model emits them. `execute` never throws and never rejects: every
 * call ends in exactly one `ToolResult` or `ToolFailure`, and exactly one terminal event.
 *
 * @example
 * ```ts
 * const outcome = await executor.execute({ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
 * messages.push(toOpenAIToolMessage(outcome));
 * ```
 * @publicApi
 */
@Injectable()
export class ToolExecutor implements OnApplicationShutdown {
  /** Every call's events: started, attempts failed, retries, breaker changes, terminal. */
  readonly events$: Observable<ToolEvent>;
  /** The calls in flight: shutdown cancels them. */
  private readonly live = new LiveCalls();

  /** Nest injects the dependencies. @internal */
  constructor(
    private readonly registry: ToolRegistry,
    private readonly failures: ToolFailureFactory,
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
    private readonly gate: ToolApprovalGate,
    private readonly approvals: ToolApprovals,
  ) {
    this.events$ = events.events$;
  }

  /** Runs one tool call through its pipeline. */
  execute(request: ToolCallRequest, options: ExecuteOptions = NO_OPTIONS): Promise<ToolOutcome> {
    const startedAt = this.clock.now();
    const callId = callIdOf(request);
    const name = toolNameOf(request);
    this.events.emit({ type: 'call.started', at: startedAt, callId, tool: name });
    let call: MutableToolCallContext | undefined;
    let state: ToolCallState | undefined;
    let live: LiveCall | undefined;
    try {
      assertExecuteOptions(options);
      const tool = this.resolve(name);
      const args = parseToolArguments(field(request, 'arguments'), {
        maxBytes: this.options.maxArgumentBytes,
      });
      const policies = applyCallOverrides(tool.policies, options);
      const metadata = options.metadata ?? NO_METADATA;
      const { conversationId } = options;
      const idempotencyKey = idempotencyKeyOf(
        options.idempotencyKey,
        { callId, toolName: name, conversationId, metadata },
        this.options.idempotencyKey,
      );
      live = this.live.open(options.signal);
      const opened = openToolCall(
        { callId, toolName: name, metadata, idempotencyKey },
        {
          tool,
          startedAt,
          args,
          lifetime: live,
          policies,
          // Known before Nest's guards and pipes run, so a failure there tells it too.
          retryMax: policies.retry?.maxRetries ?? 0,
        },
      );
      ({ call, state } = opened);
      const running = this.gate.invoke(tool, args, opened.call, options);
      return this.follow(running, opened.call, opened.state, options);
    } catch (error) {
      const outcome = this.failed(error, name, callId, startedAt, call, state);
      if (state === undefined && live) this.live.end(live); // otherwise end() ends it
      return Promise.resolve(this.end(outcome, state, options));
    }
  }

  /**
   * Decides a call that waits for approval (`ToolFailure.approval.id`): approved, it runs once
   * through its whole pipeline with its call id, arguments and idempotency key; declined, it
   * ends in an `approval_denied` failure with the reason. Rejects with
   * `ApprovalNotPendingError` for an unknown id, one decided already, or one that expired.
   */
  resolveApproval(id: string, resolution: ApprovalResolution): Promise<ToolOutcome> {
    return this.approvals.resolve(id, resolution, (request, options) =>
      this.execute(request, options),
    );
  }

  /** The calls waiting for a person's approval, oldest first (`conversationId` narrows them). */
  pendingApprovals(filter?: { conversationId?: string }): Promise<readonly ApprovalRecord[]> {
    return this.approvals.pending(filter);
  }

  /** Ends every call whose approval time ran out in its `approval_expired` failure. */
  expireApprovals(): Promise<readonly ExpiredApproval[]> {
    return this.approvals.expireDue();
  }

  /** Cancels the calls still running, and refuses new ones, so nothing outlives the application. */
  onApplicationShutdown(): void {
    this.live.close(new CancelledError('The application shut down before the call finished.'));
  }

  /**
   * Puts a `chaos.injected` event on {@link ToolExecutor.events$}, in line with the call's
   * own events, so telemetry can tell injected faults from real incidents. Fault injectors
   * (`@toolshield/chaos`) call it; applications need not.
   */
  reportChaosInjection(event: ChaosInjectedEvent): void {
    this.events.emit(event);
  }

  private resolve(name: string): RegisteredTool {
    const tool = this.registry.get(name);
    if (tool) return tool;
    const availableTools = this.registry.names();
    const didYouMean = suggestToolNames(name, availableTools);
    throw new ToolNotFoundError(`There is no tool named "${name}".`, {
      captureStack: false,
      availableTools,
      didYouMean,
    });
  }

  /**
   * Ends the call when the tool's pipeline settles. Promise callbacks rather than an async
   * function, in a function of their own: they stay alive while the call runs, and a
   * suspended async function, or callbacks closing over more, hold more memory per call.
   */
  private follow(
    running: Promise<unknown>,
    call: MutableToolCallContext,
    state: ToolCallState,
    options: ExecuteOptions,
  ): Promise<ToolOutcome> {
    return running.then(
      (value) => this.end(this.succeeded(value, call, state), state, options),
      (error: unknown) =>
        this.end(
          this.failed(error, call.toolName, call.callId, state.startedAt, call, state),
          state,
          options,
        ),
    );
  }

  /** The call's result, or its failure when the value cannot be sent to the model. */
  private succeeded(
    value: unknown,
    call: MutableToolCallContext,
    state: ToolCallState,
  ): ToolOutcome {
    if (value instanceof ToolFailureEnvelope) return value.failure;
    try {
      assertSerializableOutput(value);
    } catch (error) {
      return this.failed(error, call.toolName, call.callId, state.startedAt, call, state);
    }
    return createToolResult(value, {
      tool: call.toolName,
      callId: call.callId,
      retryCount: call.attempt - 1,
      retryMax: state.retryMax,
      durationMs: this.clock.now() - state.startedAt,
      metadata: state.resultMetadata,
    });
  }

  private failed(
    error: unknown,
    tool: string,
    callId: string,
    startedAt: number,
    call: MutableToolCallContext | undefined,
    state: ToolCallState | undefined,
  ): ToolOutcome {
    return this.failures.fromError(error, {
      tool,
      callId,
      attempts: call?.attempt ?? 1,
      retryMax: state?.retryMax ?? 0,
      retriesWithheld: state?.retriesWithheld,
      startedAt,
      ...effectFacts(call, state),
    });
  }

  /**
   * Ends a call: forgets it, commits the breaker count of a failed call's last attempt (the
   * breaker counts calls, not attempts), runs the tool's fallback if it failed, and reports
   * the terminal event.
   */
  private end(
    outcome: ToolOutcome,
    state: ToolCallState | undefined,
    options: ExecuteOptions,
  ): ToolOutcome | Promise<ToolOutcome> {
    if (state) this.live.end(state.lifetime);
    if (!outcome.success) state?.pendingFailure?.();
    const fallback = state?.tool.options.fallback;
    if (state === undefined || fallback === undefined || outcome.success) {
      this.emitTerminal(outcome);
      return outcome;
    }
    return applyFallback(
      outcome,
      fallback,
      state.args,
      (request) =>
        this.execute(request, {
          signal: options.signal,
          metadata: options.metadata,
          conversationId: options.conversationId,
        }),
      this.clock,
      state.startedAt,
    ).then((final) => {
      this.emitTerminal(final);
      return final;
    });
  }

  private emitTerminal(outcome: ToolOutcome): void {
    const base = { at: this.clock.now(), callId: outcome.callId, tool: outcome.tool };
    this.events.emit(
      outcome.success
        ? { ...base, type: 'call.succeeded', result: outcome }
        : { ...base, type: 'call.failed', failure: outcome as ToolFailure },
    );
  }
}

/** What a call without options or metadata shares, rather than an empty object each. */
const NO_OPTIONS: ExecuteOptions = Object.freeze({});
const NO_METADATA: Readonly<Record<string, unknown>> = Object.freeze({});

/** Reads a field of whatever the caller passed, surviving nulls, primitives and throwing getters. */
function field(request: unknown, key: keyof ToolCallRequest): unknown {
  try {
    return (request as Partial<ToolCallRequest> | null | undefined)?.[key];
  } catch {
    return undefined;
  }
}

function callIdOf(request: unknown): string {
  const id = field(request, 'id');
  return typeof id === 'string' && id.length > 0 ? id : `call_${randomUUID()}`;
}

function toolNameOf(request: unknown): string {
  const name = field(request, 'name');
  if (typeof name === 'string') return capToolName(name);
  try {
    return capToolName(String(name));
  } catch {
    return '(unnamed)';
  }
}
