import { renderToolOutcomeContent, type ToolCallRequest, type ToolOutcome } from '@toolshield/core';
import { type ToolCallExecutorOptions } from '@toolshield/core/agent';
import { type ToolEvent } from '@toolshield/core/events';
import type { ToolCircuitBreakers, ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { randomUUID } from 'node:crypto';
import type { RunTracing } from '../telemetry/run-tracing.js';
import { laneOfBreakerKey } from '../tools/run-scope.js';
import { hasNoSideEffects } from '../tools/tool-traits.js';
import type { RunIdempotencyKeys } from './idempotency-keys.js';
import type { RunEventHub } from './run-event-hub.js';
import { RunLanes } from './run-lanes.js';

/** A queued run as the worker working it holds it. */
export interface RunLease {
  /** Aborted when the run is to stop here: a shutdown hands it back, or the lease was lost. */
  readonly signal: AbortSignal;
  /**
   * Renews the lease just before a call with an effect goes out, so that no other worker can
   * take the run while the call is made. Resolves `false` when it could not (the lease is
   * lost, `signal` is aborted, and the call is not made).
   */
  renew(): Promise<boolean>;
}

/** What one run's calls go through {@link RunToolCalls.executorFor} with. */
export interface RunCallContext {
  /** The run's trace: each call is a span. */
  readonly tracing: RunTracing;
  /** The run's idempotency keys (an interrupted call's key carries over to its repeat). */
  readonly keys: RunIdempotencyKeys;
  /** A queued run's lease: renewed before each call with an effect. */
  readonly lease?: RunLease;
}

/** What a run's call takes besides itself: a waiting call a person approved carries that. */
export interface RunCallOptions extends ToolCallExecutorOptions {
  /** A person approved the call it waited for: it runs now, without asking again. */
  readonly approved?: { readonly by?: string; readonly reason?: string };
  /** The key the call waited with: the approved call is made under it. */
  readonly idempotencyKey?: string;
}

/** Runs one of a run's calls: the agent runner's executor, and the approved calls'. */
export type RunCallExecutor = (
  call: ToolCallRequest,
  options: RunCallOptions,
) => Promise<ToolOutcome>;

/**
 * The app's tool calls, each tied to its run while it runs: its events, and a breaker's (for
 * every live run that called the tool), land on the run's stream. A call with an effect goes
 * out only once its key is stored and the run's lease renewed; once out, stopping the run (a
 * shutdown handing it back) does not cut it: it ends with its result or its own timeout.
 */
export class RunToolCalls {
  private readonly callRuns = new Map<string, string>();
  /** The live runs that called each tool (breaker events go to them). */
  private readonly toolRuns = new Map<string, Set<string>>();
  /** Each live run's lane: the key of its breakers that are per run (`metadata.lane`). */
  private readonly lanes = new RunLanes();

  constructor(
    private readonly hub: RunEventHub,
    private readonly executor: ToolExecutor,
    private readonly registry: ToolRegistry,
    private readonly breakers: ToolCircuitBreakers,
  ) {}

  /** The executor of one run's calls. */
  executorFor(runId: string, { tracing, keys, lease }: RunCallContext): RunCallExecutor {
    const metadata = { runId, lane: this.lanes.take(runId) };
    return async (request, { signal, approved, idempotencyKey: waitedWith }) => {
      const call = { ...request, id: request.id ?? `call_${randomUUID()}` };
      const args =
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      const idempotencyKey = waitedWith ?? keys.keyFor(call);
      this.hub.emit(runId, {
        type: 'tool.requested',
        callId: call.id,
        tool: call.name,
        arguments: args,
        idempotencyKey,
      });
      const callSignal = hasNoSideEffects(this.registry.get(call.name))
        ? signal
        : await this.beforeEffect(signal, lease);
      this.callRuns.set(call.id, runId);
      const users = this.toolRuns.get(call.name) ?? new Set<string>();
      this.toolRuns.set(call.name, users.add(runId));
      try {
        const outcome = await tracing.toolCall(call.id, () =>
          this.executor.execute(call, {
            signal: callSignal,
            metadata,
            idempotencyKey,
            conversationId: runId,
            ...(approved ? { approved } : {}),
          }),
        );
        // A call that waits for approval has no result yet: the model reads the decision's.
        if (outcome.success || outcome.errorType !== 'approval_pending') {
          this.hub.emit(runId, {
            type: 'tool.result',
            callId: call.id,
            tool: call.name,
            isError: !outcome.success,
            content: renderToolOutcomeContent(outcome),
          });
        }
        return outcome;
      } finally {
        this.callRuns.delete(call.id);
      }
    };
  }

  /**
   * Write-ahead: a call with an effect goes out only once its key is stored, so a worker that
   * dies mid-call leaves the key to the instance that repeats the call; and only while this
   * worker holds the run (a lost lease: the call gets the aborted `signal` and is not made).
   * Once out, the run's `signal` no longer reaches it: a shutdown that cut it would record a
   * payment the upstream made as cancelled, and the run's next worker would report it unpaid.
   * The shutdown waits for it instead (within the call's own timeout).
   */
  private async beforeEffect(
    signal: AbortSignal | undefined,
    lease: RunLease | undefined,
  ): Promise<AbortSignal | undefined> {
    await this.hub.flush();
    const held = (await lease?.renew()) ?? true;
    return held ? undefined : signal;
  }

  /**
   * The run stopped here: breaker events no longer go to it, and its lane is free again, its
   * breakers closed with fresh windows for the next run that takes it.
   */
  async forget(runId: string): Promise<void> {
    for (const runs of this.toolRuns.values()) runs.delete(runId);
    const lane = this.lanes.release(runId);
    if (lane === undefined) return;
    const own = this.breakers.states().filter(({ key }) => laneOfBreakerKey(key) === lane);
    await Promise.all(own.map(({ key }) => this.breakers.close(key)));
  }

  /** Where a breaker's change goes: a run's own breaker's to that run, else to its tool's callers. */
  private breakerRuns({ key, tool }: { key: string; tool: string }): Iterable<string> {
    const lane = laneOfBreakerKey(key);
    if (lane === undefined) return this.toolRuns.get(tool) ?? [];
    const holder = this.lanes.holder(lane);
    return holder === undefined ? [] : [holder];
  }

  /**
   * A call's events go to its run; a breaker's to every live run that called that tool (a
   * breaker half-opens by itself, between calls), a run's own breaker's to that run only; a
   * rate limiter's changes (which belong to an upstream, not a run) to none.
   */
  route(event: ToolEvent): void {
    if (event.type === 'breaker.state_changed') {
      for (const runId of this.breakerRuns(event)) this.hub.emit(runId, event, event.at);
      return;
    }
    if (event.type === 'rate_limit.changed') return;
    const runId = this.callRuns.get(event.callId);
    if (runId) this.hub.emit(runId, event, event.at);
  }
}
