import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AgentRunsService } from './agent-runs.service.js';
import { RunEventHub } from './run-event-hub.js';
import { RUN_STORE, type RunStore } from './run-store.js';

/**
 * The longest a sweep waits for the next: how late this instance notices an approval another
 * instance stored expiring, or a decision a crash kept from resuming its run.
 */
const MAX_SWEEP_INTERVAL_MS = 5_000;

/**
 * Resumes the waiting runs nobody else will: one whose approval expired unanswered (nobody
 * posts a decision; the model reads that it expired), and one whose decision was stored by an
 * instance that died before it resumed the run. Each instance sweeps at startup, when an
 * approval it knows of (stored, or waited on by a run here) expires, and at least every 5 s;
 * the run's own wake is atomic, so instances sweeping together resume a run once.
 */
@Injectable()
export class ApprovalSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  /** When the next sweep is due (ms since the epoch). */
  private nextAt = Number.POSITIVE_INFINITY;
  private stopped = false;
  private untap?: () => void;

  constructor(
    private readonly runs: AgentRunsService,
    private readonly hub: RunEventHub,
    @Inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  onApplicationBootstrap(): void {
    this.untap = this.hub.tap(({ data }) => {
      if (data.type !== 'run.awaiting_approval') return;
      for (const approval of data.approvals) this.sweepAt(approval.expiresAt);
    });
    void this.sweep();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.untap?.();
    clearTimeout(this.timer);
  }

  /** Sweeps at `at` (or sooner, if a sweep is due before). */
  private sweepAt(at: number): void {
    if (this.stopped || at >= this.nextAt) return;
    clearTimeout(this.timer);
    this.nextAt = at;
    this.timer = setTimeout(() => void this.sweep(), Math.max(at - Date.now(), 0) + 5);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    this.nextAt = Number.POSITIVE_INFINITY;
    let next = Date.now() + MAX_SWEEP_INTERVAL_MS;
    try {
      for (const run of await this.store.runsAwaitingApproval()) {
        await this.runs.wakeIfDecided(run.id);
      }
      const now = Date.now();
      for (const approval of await this.store.approvals.list({ status: 'pending' })) {
        if (approval.expiresAt > now) next = Math.min(next, approval.expiresAt);
      }
    } catch (error) {
      console.error('could not sweep the runs that wait for approval:', error);
    }
    this.sweepAt(next);
  }
}
