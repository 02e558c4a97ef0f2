import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AgentRunner, type ChatModelTool } from '@toolshield/core/agent';
import { ToolCircuitBreakers, ToolExecutor, ToolRegistry } from '@toolshield/nest';
import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { MODEL_SELECTOR, type ModelSelector } from '../agent/select-model.js';
import { SCENARIOS, scenarioForTask, type Scenario } from '../scenarios/index.js';
import type { ScenarioServices } from '../scenarios/scenario.js';
import { releaseRunWorld } from '../scenarios/run-world.js';
import { RunTracing } from '../telemetry/run-tracing.js';
import { TERMINATING_TOOLS } from '../tools/conversation.tools.js';
import type { RunIdempotency } from './idempotency.js';
import { isSafeToRepeat } from '../tools/tool-traits.js';
import { RunIdempotencyKeys } from './idempotency-keys.js';
import { RunEventHub } from './run-event-hub.js';
import { InvalidRunRequestError } from './run-errors.js';
import { callsInFlight, type RunEvent } from './run-event.js';
import { INSTANCE_ID } from './run-event-feed.js';
import { RUN_QUEUE, type RunQueue } from './run-queue.js';
import type { RunRecord } from './run-record.js';
import { runCompletion } from './run-status.js';
import { RUN_STORE, type RunStore } from './run-store.js';
import { observedModel } from './observed-model.js';
import { RunToolCalls, type RunLease } from './run-tool-calls.js';
import { standInTask } from './stand-in.js';
import { decidedOutcomes } from './waited-calls.js';
import { RunWaits } from './run-waits.js';

/** What `POST /api/runs` asks for. */
export interface StartRunRequest {
  readonly task: string;
  readonly scenario?: string;
}

/** The longest task a run accepts, in characters. */
export const MAX_TASK_LENGTH = 4_000;

/**
 * How working a queued run ended here: finished, waiting for approval (no worker holds it),
 * handed back to the queue, or nothing to do.
 */
export type RunWorkEnd = 'finished' | 'awaiting-approval' | 'handed-back' | 'gone';

/** How {@link AgentRunsService} runs one run here. */
interface Execution {
  readonly signal: AbortSignal;
  /** The events the run has so far (a resumed run's). */
  readonly past?: readonly RunEvent[];
  /** A queued run: an abort hands it back unfinished, and calls with effects renew the lease. */
  readonly lease?: RunLease;
}

const SYSTEM_PROMPT =
  'You are an operations assistant with web, Kubernetes, file and calculator tools. Do what ' +
  'the user asks with the tools, then call attempt_completion with the result; call ask_user ' +
  'when you need more from the user.';

/**
 * Starts agent runs in the background and keeps their record: every run is a toolshield
 * `AgentRunner` over the app's `ToolExecutor`, its history in the run store (the run's id is
 * its conversation id), every model step and tool event on the run's event stream. After a
 * restart it resumes the runs a crash left `running`: the runner repairs the interrupted
 * calls and carries on. With a {@link RunQueue} (several instances), a started run is queued
 * instead, and {@link AgentRunsService.work} runs it on whichever instance's worker takes it.
 * A run whose call needs a person's approval waits without a worker (`awaiting_approval`);
 * once every call it waits for is decided, {@link AgentRunsService.wakeIfDecided} resumes it.
 */
@Injectable()
export class AgentRunsService implements OnModuleInit, OnApplicationShutdown {
  private readonly running = new Map<string, Promise<RunRecord>>();
  private readonly aborts = new Map<string, AbortController>();
  private subscription?: Subscription;
  private readonly toolCalls: RunToolCalls;
  private readonly waits: RunWaits;
  /** The app's providers, for setting up and releasing the runs' worlds. */
  private readonly services: ScenarioServices = (type) =>
    this.moduleRef.get(type, { strict: false });

  constructor(
    private readonly executor: ToolExecutor,
    private readonly registry: ToolRegistry,
    private readonly hub: RunEventHub,
    private readonly moduleRef: ModuleRef,
    breakers: ToolCircuitBreakers,
    @Inject(RUN_STORE) private readonly store: RunStore,
    @Inject(MODEL_SELECTOR) private readonly models: ModelSelector,
    @Optional() @Inject(RUN_QUEUE) private readonly queue?: RunQueue,
    @Optional() @Inject(INSTANCE_ID) private readonly instance?: string,
  ) {
    this.toolCalls = new RunToolCalls(hub, executor, registry, breakers);
    this.waits = new RunWaits(store, hub, async (runId) => {
      // A job of its own: the one that ran up to the wait may still be finishing.
      if (this.queue) return this.queue.enqueue(runId, `${runId}.${randomUUID()}`);
      // Here: once the stretch that ran up to the wait (it may be the one waking it) is done.
      void (this.running.get(runId) ?? Promise.resolve())
        .then(() => this.store.getRun(runId))
        .then((run) => run && this.resumeHere(run))
        .catch((error: unknown) => console.error(`run ${runId} could not be resumed:`, error));
    });
  }

  onModuleInit(): void {
    this.subscription = this.executor.events$.subscribe((event) => this.toolCalls.route(event));
  }

  async onApplicationShutdown(): Promise<void> {
    for (const abort of this.aborts.values()) abort.abort();
    await Promise.allSettled(this.running.values());
    this.subscription?.unsubscribe();
  }

  /**
   * Validates the request, records the run (with its idempotency key, if any) and starts it;
   * resolves once it is recorded.
   */
  async start(request: StartRunRequest, idempotency?: RunIdempotency): Promise<RunRecord> {
    const task = typeof request.task === 'string' ? request.task.trim() : '';
    if (!task) throw new InvalidRunRequestError('"task" must be a non-empty string.');
    if (task.length > MAX_TASK_LENGTH) {
      throw new InvalidRunRequestError(
        `"task" must be at most ${MAX_TASK_LENGTH} characters, got ${task.length}.`,
      );
    }
    const scenario = this.scenarioFor(request.scenario, task);
    const run: RunRecord = {
      id: randomUUID(),
      task,
      ...(scenario ? { scenario: scenario.name } : {}),
      model: this.models.label,
      status: 'running',
      createdAt: new Date().toISOString(),
    };
    await this.store.createRun(run, idempotency);
    this.hub.open(run.id);
    this.hub.emit(run.id, {
      type: 'run.started',
      task,
      scenario: scenario?.name,
      model: run.model,
    });
    if (this.queue) {
      await this.hub.close(run.id);
      await this.queue.enqueue(run.id);
      return run;
    }
    await this.prepare(scenario, run.id);
    this.launch(run, scenario, task);
    return run;
  }

  /**
   * Waits until no run is in progress, or `timeoutMs` passed (a graceful stop); resolves with
   * the ids of the runs still going, which stay `running` in the store and resume at the next
   * start.
   */
  async settle(timeoutMs: number): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled(this.running.values()), deadline]);
    clearTimeout(timer);
    return [...this.running.keys()];
  }

  /**
   * Works a queued run here until it ends, or until the lease's signal aborts it (shutdown,
   * or a lost lease): then its history stays as the runner saved it, the run stays `running`,
   * and the queue gives it to another instance. A run some worker already began is resumed,
   * with `run.resumed` naming this instance. A call with an effect goes out only after the
   * lease was renewed: a worker that lost the run (a stalled event loop) makes no payment
   * beside the worker that took it over.
   */
  async work(runId: string, lease: RunLease): Promise<RunWorkEnd> {
    // One round trip of reads: this is the wait between the queue and the run's first step.
    const [run, past, history] = await Promise.all([
      this.store.getRun(runId),
      this.store.events(runId),
      this.store.load(runId),
    ]);
    if (run?.status !== 'running') return 'gone';
    const scenario = run.scenario === undefined ? undefined : SCENARIOS.get(run.scenario);
    this.hub.open(run.id, past.at(-1)?.seq ?? 0, past);
    if (past.some((event) => event.data.type !== 'run.started')) {
      this.hub.emit(run.id, {
        type: 'run.resumed',
        repaired: callsInFlight(past),
        ...(this.instance === undefined ? {} : { instance: this.instance }),
      });
    } else {
      await this.prepare(scenario, run.id);
    }
    const after = await this.execute(run, scenario, history ? undefined : run.task, {
      signal: lease.signal,
      past,
      lease,
    });
    if (lease.signal.aborted) return 'handed-back';
    return after.status === 'awaiting_approval' ? 'awaiting-approval' : 'finished';
  }

  /** Resumes every run a previous process left `running`; resolves once they are launched. */
  async resumeInterrupted(): Promise<RunRecord[]> {
    // Queued runs resume through the queue: a dead worker's job goes to another instance.
    if (this.queue) return [];
    const interrupted = await this.store.runningRuns();
    for (const run of interrupted) await this.resumeHere(run);
    return interrupted;
  }

  /**
   * Resumes a run that waits for approval once no call of it waits any more (each decided or
   * expired); see {@link RunWaits.wakeIfDecided}. Resolves `true` for the one caller that did.
   */
  wakeIfDecided(runId: string): Promise<boolean> {
    return this.waits.wakeIfDecided(runId);
  }

  /** Resumes a stored run in this process (no queue): its past events, then the runner. */
  private async resumeHere(run: RunRecord): Promise<void> {
    const past = await this.store.events(run.id);
    this.hub.open(run.id, past.at(-1)?.seq ?? 0, past);
    this.hub.emit(run.id, { type: 'run.resumed', repaired: callsInFlight(past) });
    this.launch(
      run,
      run.scenario === undefined ? undefined : SCENARIOS.get(run.scenario),
      undefined,
      past,
    );
  }

  /** Sets up the run's world as its scenario says (its plan on the upstream, ...). */
  private async prepare(scenario: Scenario | undefined, runId: string): Promise<void> {
    await scenario?.prepare?.(this.services, runId);
  }

  private scenarioFor(name: unknown, task: string): Scenario | undefined {
    if (name === undefined || name === null || name === '') return scenarioForTask(task);
    const scenario = typeof name === 'string' ? SCENARIOS.get(name) : undefined;
    if (!scenario) {
      throw new InvalidRunRequestError(
        `Unknown scenario ${JSON.stringify(name)}; known: ${[...SCENARIOS.keys()].join(', ')}.`,
      );
    }
    return scenario;
  }

  private launch(
    run: RunRecord,
    scenario: Scenario | undefined,
    input: string | undefined,
    past: readonly RunEvent[] = [],
  ): void {
    const abort = new AbortController();
    this.aborts.set(run.id, abort);
    const done = this.execute(run, scenario, input, { signal: abort.signal, past })
      .catch((error: unknown) => {
        // The runner never throws; the store can. The run stays `running` and resumes at the
        // next start; the process keeps serving.
        console.error(`run ${run.id} could not be recorded:`, error);
        return run;
      })
      .finally(() => {
        this.running.delete(run.id);
        this.aborts.delete(run.id);
      });
    this.running.set(run.id, done);
  }

  private async execute(
    run: RunRecord,
    scenario: Scenario | undefined,
    input: string | undefined,
    { signal, past = [], lease }: Execution,
  ): Promise<RunRecord> {
    const script = scenario?.script ?? standInTask([...SCENARIOS.keys()]);
    const model = this.models.forTask(script, { idPrefix: `call_${run.id.slice(0, 8)}` });
    const tracing = new RunTracing(run);
    const executor = this.toolCalls.executorFor(run.id, {
      tracing,
      keys: new RunIdempotencyKeys(run.id, past),
      lease,
    });
    const approvalOutcomes = await decidedOutcomes({
      runId: run.id,
      store: this.store,
      hub: this.hub,
      execute: executor,
    });
    const runner = new AgentRunner({
      model: observedModel(this.hub, run.id, model, { tracing, label: this.models.label }),
      executor,
      tools: this.tools(),
      store: this.store,
      systemPrompt: SYSTEM_PROMPT,
      completionTool: script.completionTool ?? 'attempt_completion',
      batch: { strategy: 'parallel', concurrency: 4, terminatingTools: [...TERMINATING_TOOLS] },
      guards: { maxSteps: 12 },
      // After a crash, an interrupted call of an idempotent tool may simply be made again, and
      // so may one whose upstream deduplicates it by its idempotency key.
      safeToRepeat: (tool) => isSafeToRepeat(this.registry.get(tool)),
    });
    const result = await tracing
      .run(
        () => runner.run({ conversationId: run.id, input, signal, approvalOutcomes }),
        (done) => done.status,
      )
      .finally(() => this.toolCalls.forget(run.id));
    if (lease && signal.aborted) {
      // Not finished: the queue gives the run to another instance, which resumes it.
      this.hub.emit(run.id, { type: 'run.handed_back', instance: this.instance ?? 'unknown' });
      await this.hub.close(run.id);
      return run;
    }
    if (result.status === 'awaiting_approval') {
      return this.waits.suspend(run, result.awaitingApproval ?? []);
    }
    const completion = runCompletion(result, new Date());
    // The record first: a client that sees `run.finished` then reads a finished run.
    await this.store.finishRun(run.id, completion);
    this.hub.emit(run.id, {
      type: 'run.finished',
      status: completion.status,
      reason: completion.reason ?? { code: 'internal_error', message: 'No reason.' },
      finalAnswer: completion.finalAnswer ?? '',
    });
    await this.hub.close(run.id);
    // Its notes, cluster and upstream plans go; a run handed back keeps them here.
    await releaseRunWorld(this.services, run.id);
    return { ...run, ...completion };
  }

  private tools(): ChatModelTool[] {
    return this.registry.definitions().map((definition) => ({
      name: definition.name,
      description: definition.description,
      parameters: definition.inputSchema,
    }));
  }
}
