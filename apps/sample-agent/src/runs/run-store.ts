import type { ToolCallLedgerStore } from '@toolshield/core/agent';
import type { ApprovalStore } from '@toolshield/core/approvals';
import type { RunIdempotency } from './idempotency.js';
import type { RunEvent } from './run-event.js';
import type { RunCursor } from './run-page.js';
import type { RunCompletion, RunRecord } from './run-record.js';

/**
 * Where runs, their events and their conversations live: one interface, kept in memory, in
 * SQLite or in PostgreSQL. The conversation itself is the `ToolCallLedgerStore` part (a
 * run's id is its conversation id), so toolshield's agent runner reads and writes it directly.
 */
export interface RunStore extends ToolCallLedgerStore {
  /** The tool calls waiting for a person, in the same place as the runs. */
  readonly approvals: ApprovalStore;
  /** Creates tables and the like; run before anything else. */
  migrate(): Promise<void>;
  /** Stores a new run; with `idempotency`, its key too (unique: a second run with it is refused). */
  createRun(run: RunRecord, idempotency?: RunIdempotency): Promise<void>;
  finishRun(id: string, completion: RunCompletion): Promise<void>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first (then by id), at most `limit`, those after `after` when given. */
  listRuns(limit?: number, after?: RunCursor): Promise<RunRecord[]>;
  /** The run started with this `Idempotency-Key`, and its request's fingerprint. */
  runByIdempotencyKey(key: string): Promise<{ run: RunRecord; fingerprint: string } | undefined>;
  /** Runs still `running`: after a restart, the ones a crash interrupted. */
  runningRuns(): Promise<RunRecord[]>;
  /** A `running` run now waits for approval (`awaiting_approval`); `false` if it was not running. */
  suspendRun(id: string): Promise<boolean>;
  /**
   * A run that waits for approval is `running` again: `true` for the one caller that moved it
   * (atomic: of concurrent wakers on any instance, one wins and works it).
   */
  wakeRun(id: string): Promise<boolean>;
  /** Runs that wait for approval, oldest first. */
  runsAwaitingApproval(): Promise<RunRecord[]>;
  appendEvents(events: readonly RunEvent[]): Promise<void>;
  /** A run's events with `seq > afterSeq`, in order. */
  events(runId: string, afterSeq?: number): Promise<RunEvent[]>;
  close(): Promise<void>;
}

/** Injection token of the app's {@link RunStore}. */
export const RUN_STORE = Symbol('RunStore');
