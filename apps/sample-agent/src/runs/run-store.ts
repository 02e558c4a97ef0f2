import type { ToolCallLedgerStore } from '@toolshield/core';
import type { RunEvent } from './run-event.js';
import type { RunCompletion, RunRecord } from './run-record.js';

/**
 * Where runs, their events and their conversations live: one interface, kept in memory, in
 * SQLite or in PostgreSQL. The conversation itself is the `ToolCallLedgerStore` part (a
 * run's id is its conversation id), so toolshield's agent runner reads and writes it directly.
 */
export interface RunStore extends ToolCallLedgerStore {
  /** Creates tables and the like; run before anything else. */
  migrate(): Promise<void>;
  createRun(run: RunRecord): Promise<void>;
  finishRun(id: string, completion: RunCompletion): Promise<void>;
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(limit?: number): Promise<RunRecord[]>;
  /** Runs still `running`: after a restart, the ones a crash interrupted. */
  runningRuns(): Promise<RunRecord[]>;
  appendEvents(events: readonly RunEvent[]): Promise<void>;
  /** A run's events with `seq > afterSeq`, in order. */
  events(runId: string, afterSeq?: number): Promise<RunEvent[]>;
  close(): Promise<void>;
}

/** Injection token of the app's {@link RunStore}. */
export const RUN_STORE = Symbol('RunStore');
