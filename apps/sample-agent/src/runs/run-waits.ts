import type { AwaitingApproval } from '@toolshield/core/agent';
import type { RunEventHub } from './run-event-hub.js';
import type { RunRecord } from './run-record.js';
import type { RunStore } from './run-store.js';

/**
 * Runs that wait for a person: a run whose call needs approval stops holding a worker
 * (`awaiting_approval`), and resumes once every call it waits for is decided or expired.
 * The decision may reach any instance; the run's status moves back to `running` in one
 * conditional update, so exactly one of the instances that try resumes it.
 */
export class RunWaits {
  constructor(
    private readonly store: RunStore,
    private readonly hub: RunEventHub,
    /** Resumes a woken run: queues it, or works it in this process without a queue. */
    private readonly resume: (runId: string) => Promise<void>,
  ) {}

  /**
   * The run waits: `run.awaiting_approval` with the calls it waits for, its events stored,
   * then its status, so that whoever wakes it finds everything in place. A decision that came
   * while it was still working wakes it at once.
   */
  async suspend(run: RunRecord, waiting: readonly AwaitingApproval[]): Promise<RunRecord> {
    this.hub.emit(run.id, {
      type: 'run.awaiting_approval',
      approvals: waiting.map(({ callId, tool, approval }) => ({
        id: approval.id,
        tool,
        callId,
        args: approval.args,
        expiresAt: approval.expiresAt,
      })),
    });
    await this.hub.suspend(run.id);
    await this.store.suspendRun(run.id);
    await this.wakeIfDecided(run.id);
    return { ...run, status: 'awaiting_approval' };
  }

  /**
   * Resumes a waiting run once none of its calls waits any more: of every instance that tries
   * (the one a decision reached, the run's own worker as it stops, an expiry sweep), one wins.
   * Resolves `true` for that one.
   */
  async wakeIfDecided(runId: string): Promise<boolean> {
    const now = Date.now();
    const pending = await this.store.approvals.list({ conversationId: runId, status: 'pending' });
    if (pending.some((approval) => approval.expiresAt > now)) return false;
    if (!(await this.store.wakeRun(runId))) return false;
    await this.resume(runId);
    return true;
  }
}
