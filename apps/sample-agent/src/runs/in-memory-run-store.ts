import { InMemoryToolCallLedgerStore } from '@toolshield/core/agent';
import { InMemoryApprovalStore } from '@toolshield/core/approvals';
import type { RunIdempotency } from './idempotency.js';
import type { RunEvent } from './run-event.js';
import { compareNewestFirst, isAfterCursor, type RunCursor } from './run-page.js';
import type { RunCompletion, RunRecord, RunStatus } from './run-record.js';
import type { RunStore } from './run-store.js';

/** A {@link RunStore} in process memory: nothing survives a restart. */
export class InMemoryRunStore extends InMemoryToolCallLedgerStore implements RunStore {
  readonly approvals = new InMemoryApprovalStore();
  private readonly runs = new Map<string, RunRecord>();
  private readonly eventLog = new Map<string, RunEvent[]>();
  private readonly keys = new Map<string, { id: string; fingerprint: string }>();

  async migrate(): Promise<void> {
    // Nothing to create in memory.
  }

  async createRun(run: RunRecord, idempotency?: RunIdempotency): Promise<void> {
    if (idempotency) {
      if (this.keys.has(idempotency.key)) {
        throw new Error(`Idempotency key ${idempotency.key} is taken.`);
      }
      this.keys.set(idempotency.key, { id: run.id, fingerprint: idempotency.fingerprint });
    }
    this.runs.set(run.id, run);
  }

  async runByIdempotencyKey(
    key: string,
  ): Promise<{ run: RunRecord; fingerprint: string } | undefined> {
    const entry = this.keys.get(key);
    const run = entry && this.runs.get(entry.id);
    return run && { run, fingerprint: entry.fingerprint };
  }

  async finishRun(id: string, completion: RunCompletion): Promise<void> {
    const run = this.runs.get(id);
    if (run) this.runs.set(id, { ...run, ...completion });
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return this.runs.get(id);
  }

  async listRuns(limit = 100, after?: RunCursor): Promise<RunRecord[]> {
    const newestFirst = [...this.runs.values()].sort(compareNewestFirst);
    return newestFirst.filter((run) => !after || isAfterCursor(run, after)).slice(0, limit);
  }

  async runningRuns(): Promise<RunRecord[]> {
    return [...this.runs.values()].filter((run) => run.status === 'running');
  }

  async suspendRun(id: string): Promise<boolean> {
    return this.move(id, 'running', 'awaiting_approval');
  }

  async wakeRun(id: string): Promise<boolean> {
    return this.move(id, 'awaiting_approval', 'running');
  }

  async runsAwaitingApproval(): Promise<RunRecord[]> {
    return [...this.runs.values()].filter((run) => run.status === 'awaiting_approval');
  }

  private move(id: string, from: RunStatus, to: RunStatus): boolean {
    const run = this.runs.get(id);
    if (run?.status !== from) return false;
    this.runs.set(id, { ...run, status: to });
    return true;
  }

  async appendEvents(events: readonly RunEvent[]): Promise<void> {
    for (const event of events) {
      const log = this.eventLog.get(event.runId) ?? [];
      if ((log.at(-1)?.seq ?? 0) >= event.seq) {
        throw new Error(`Run ${event.runId} already has event ${event.seq}.`);
      }
      log.push(event);
      this.eventLog.set(event.runId, log);
    }
  }

  async events(runId: string, afterSeq = 0): Promise<RunEvent[]> {
    return (this.eventLog.get(runId) ?? []).filter((event) => event.seq > afterSeq);
  }

  async close(): Promise<void> {
    // Nothing to release.
  }
}
