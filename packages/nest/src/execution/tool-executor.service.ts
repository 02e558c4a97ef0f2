import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  CancelledError,
  ToolNotFoundError,
  assertSerializableOutput,
  capToolName,
  createToolResult,
  parseToolArguments,
  suggestToolNames,
  type ChaosInjectedEvent,
  type Clock,
  type ToolCallRequest,
  type ToolEvent,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
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
import { LiveCalls } from './live-calls.js';
import {
  openToolCall,
  type MutableToolCallContext,
  type ToolCallState,
} from './tool-call-state.js';
import { eitherSignal, type LinkedSignal } from './either-signal.js';
import { ToolEventBus } from './tool-event-bus.js';
import { applyFallback } from './tool-fallback.js';
import { ToolFailureEnvelope } from './tool-failure-envelope.js';
import { ToolFailureFactory } from './tool-failure.factory.js';

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

  constructor(
    private readonly registry: ToolRegistry,
    private readonly failures: ToolFailureFactory,
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
  ) {
    this.events$ = events.events$;
  }

  /** Runs one tool call through its pipeline. */
  async execute(request: ToolCallRequest, options: ExecuteOptions = {}): Promise<ToolOutcome> {
    const startedAt = this.clock.now();
    const callId = callIdOf(request);
    const name = toolNameOf(request);
    if (this.events.observed) {
      this.events.emit({ type: 'call.started', at: startedAt, callId, tool: name });
    }
    let call: MutableToolCallContext | undefined;
    let state: ToolCallState | undefined;
    let live: AbortController | undefined;
    let outcome: ToolOutcome;
    let linked: LinkedSignal | undefined;
    try {
      assertExecuteOptions(options);
      const tool = this.resolve(name);
      const args = parseToolArguments(field(request, 'arguments'), {
        maxBytes: this.options.maxArgumentBytes,
      });
      live = this.live.open(options.signal);
      // Not AbortSignal.any: see either-signal.ts.
      linked = options.signal ? eitherSignal(options.signal, live.signal) : undefined;
      const signal = linked?.signal ?? live.signal;
      ({ call, state } = openToolCall(
        { callId, toolName: name, metadata: options.metadata ?? {} },
        {
          tool,
          startedAt,
          args,
          callerSignal: signal,
          policies: applyCallOverrides(tool.policies, options),
          retryMax: 0,
        },
      ));
      outcome = this.toOutcome(await tool.invoke(args, call), call, state);
    } catch (error) {
      outcome = this.failures.fromError(error, {
        tool: name,
        callId,
        attempts: call?.attempt ?? 1,
        retryMax: state?.retryMax ?? 0,
        startedAt,
      });
    } finally {
      linked?.release();
    }
    // The breaker counts the call, not its attempts: a failed call's last attempt counts now.
    if (!outcome.success) state?.deferredFailure?.();
    const fallback = state?.tool.options.fallback;
    if (fallback && !outcome.success) {
      outcome = await applyFallback(
        outcome,
        fallback,
        state?.args,
        (request) => this.execute(request, { signal: options.signal, metadata: options.metadata }),
        this.clock,
        startedAt,
      );
    }
    if (live) this.live.end(live);
    this.emitTerminal(outcome);
    return outcome;
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
      availableTools,
      didYouMean,
    });
  }

  private toOutcome(
    value: unknown,
    call: MutableToolCallContext,
    state: ToolCallState,
  ): ToolOutcome {
    if (value instanceof ToolFailureEnvelope) return value.failure;
    assertSerializableOutput(value);
    return createToolResult(value, {
      tool: call.toolName,
      callId: call.callId,
      retryCount: call.attempt - 1,
      retryMax: state.retryMax,
      durationMs: this.clock.now() - state.startedAt,
      metadata: state.resultMetadata,
    });
  }

  private emitTerminal(outcome: ToolOutcome): void {
    if (!this.events.observed) return;
    const base = { at: this.clock.now(), callId: outcome.callId, tool: outcome.tool };
    this.events.emit(
      outcome.success
        ? { ...base, type: 'call.succeeded', result: outcome }
        : { ...base, type: 'call.failed', failure: outcome as ToolFailure },
    );
  }
}

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
