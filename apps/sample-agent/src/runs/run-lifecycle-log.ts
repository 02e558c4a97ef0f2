import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { redactSecrets } from '../agent/redact-secrets.js';
import { summariseRun } from '../demo/run-summary.js';
import { RunEventHub } from './run-event-hub.js';
import type { RunEvent } from './run-event.js';
import { RUN_STORE, type RunStore } from './run-store.js';

/** Injection token of the secrets the logs must never show (the model's key, the API token). */
export const LOG_SECRETS = Symbol('LogSecrets');

/** How much of a task a log line keeps. */
const TASK_SHOWN = 200;

/**
 * Logs each run's lifecycle, one structured line per event through Nest's logger (context
 * `AgentRuns`): started (task, scenario, model), resumed after a restart (calls repaired),
 * waiting for approval (the approvals' ids and tools, never the arguments),
 * finished (status, reason, duration, tool calls, attempts, retries, failed attempts by
 * type, breaker openings, times resumed). Text from users and models goes through the
 * secret sanitiser first.
 */
@Injectable()
export class RunLifecycleLog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AgentRuns');
  private untap?: () => void;

  constructor(
    private readonly hub: RunEventHub,
    @Inject(RUN_STORE) private readonly store: RunStore,
    @Inject(LOG_SECRETS) private readonly secrets: readonly string[],
  ) {}

  onModuleInit(): void {
    this.untap = this.hub.tap((event) => this.record(event));
  }

  onModuleDestroy(): void {
    this.untap?.();
  }

  private record({ runId, data }: RunEvent): void {
    if (data.type === 'run.started') {
      const task = this.clean(data.task);
      this.logger.log({
        event: 'run.started',
        runId,
        task: task.length > TASK_SHOWN ? `${task.slice(0, TASK_SHOWN)}…` : task,
        scenario: data.scenario,
        model: this.clean(data.model),
      });
    } else if (data.type === 'run.resumed') {
      this.logger.log({ event: 'run.resumed', runId, repairedCalls: data.repaired });
    } else if (data.type === 'run.awaiting_approval') {
      const approvals = data.approvals.map(({ id, tool }) => ({ id, tool }));
      this.logger.log({ event: 'run.awaiting_approval', runId, approvals });
    } else if (data.type === 'run.finished') {
      void this.logFinished(runId, data.status, data.reason.code);
    }
  }

  /** Reads the run's stored events (all of them: this one is stored last) and sums them up. */
  private async logFinished(runId: string, status: string, reason: string): Promise<void> {
    try {
      const events = await this.store.events(runId);
      const summary = summariseRun(runId, events);
      this.logger.log({
        event: 'run.finished',
        runId,
        status,
        reason,
        durationMs: summary.durationMs,
        toolCalls: summary.calls,
        attempts: summary.attempts,
        retries: summary.retries,
        failures: summary.failures,
        breakerOpenings: summary.breakerOpenings,
        resumed: events.filter((event) => event.data.type === 'run.resumed').length,
      });
    } catch (error) {
      this.logger.warn({
        event: 'run.finished',
        runId,
        status,
        reason,
        summary: `unavailable: ${this.clean(String(error))}`,
      });
    }
  }

  private clean(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}
