import { renderToolOutcomeContent, type ToolCallExecutor, type ToolEvent } from '@toolshield/core';
import type { ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { randomUUID } from 'node:crypto';
import type { RunTracing } from '../telemetry/run-tracing.js';
import { isIdempotentTool } from '../tools/tool-traits.js';
import type { RunIdempotencyKeys } from './idempotency-keys.js';
import type { RunEventHub } from './run-event-hub.js';

/** A queued run as the worker working it holds it. */
export interface RunLease {
  /** Aborted when the run is to stop here: a shutdown hands it back, or the lease was lost. */
  readonly signal: AbortSignal;
  /**
   * Renews the lease just before a call with an effect goes out, so that no other worker can
   * take the run while the call is made; a lease it could not renew is lost, and `signal` is
   * aborted before this resolves (the call is then not made).
   */
  renew(): Promise<void>;
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

/**
 * The app's tool calls, each tied to its run while it runs: its events, and a breaker's (for
 * every live run that called the tool), land on the run's stream. A call with an effect goes
 * out only once its key is stored and the run's lease renewed.
 */
export class RunToolCalls {
  private readonly callRuns = new Map<string, string>();
  /** The live runs that called each tool (breaker events go to them). */
  private readonly toolRuns = new Map<string, Set<string>>();

  constructor(
    private readonly hub: RunEventHub,
    private readonly executor: ToolExecutor,
    private readonly registry: ToolRegistry,
  ) {}

  /** The executor of one run's calls. */
  executorFor(runId: string, { tracing, keys, lease }: RunCallContext): ToolCallExecutor {
    return async (request, { signal }) => {
      const call = { ...request, id: request.id ?? `call_${randomUUID()}` };
      const args =
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      const idempotencyKey = keys.keyFor(call);
      this.hub.emit(runId, {
        type: 'tool.requested',
        callId: call.id,
        tool: call.name,
        arguments: args,
        idempotencyKey,
      });
      if (!isIdempotentTool(this.registry.get(call.name))) {
        // Write-ahead: a call with an effect goes out only once its key is stored, so a worker
        // that dies mid-call leaves the key to the instance that repeats the call; and only
        // while this worker holds the run (a lost lease aborts `signal`: the call is not made).
        await this.hub.flush();
        await lease?.renew();
      }
      this.callRuns.set(call.id, runId);
      const users = this.toolRuns.get(call.name) ?? new Set<string>();
      this.toolRuns.set(call.name, users.add(runId));
      try {
        const outcome = await tracing.toolCall(call.id, () =>
          this.executor.execute(call, { signal, metadata: { runId }, idempotencyKey }),
        );
        this.hub.emit(runId, {
          type: 'tool.result',
          callId: call.id,
          tool: call.name,
          isError: !outcome.success,
          content: renderToolOutcomeContent(outcome),
        });
        return outcome;
      } finally {
        this.callRuns.delete(call.id);
      }
    };
  }

  /** The run stopped here: breaker events no longer go to it. */
  forget(runId: string): void {
    for (const runs of this.toolRuns.values()) runs.delete(runId);
  }

  /**
   * A call's events go to its run; a breaker's to every live run that called that tool (a
   * breaker half-opens by itself, between calls); a rate limiter's changes (which belong to
   * an upstream, not a run) to none.
   */
  route(event: ToolEvent): void {
    if (event.type === 'breaker.state_changed') {
      for (const runId of this.toolRuns.get(event.tool) ?? [])
        this.hub.emit(runId, event, event.at);
      return;
    }
    if (event.type === 'rate_limit.changed') return;
    const runId = this.callRuns.get(event.callId);
    if (runId) this.hub.emit(runId, event, event.at);
  }
}
