import type { AgentStopReason } from '@toolshield/core/agent';

/**
 * Where a run stands. `awaiting_approval`: a call waits for a person's decision and no worker
 * holds the run; `failed`: the model or the store failed; `stopped`: it gave up and said why.
 */
export type RunStatus = 'running' | 'awaiting_approval' | 'completed' | 'stopped' | 'failed';

/** A run as stored and as `GET /api/runs` lists it. */
export interface RunRecord {
  readonly id: string;
  readonly task: string;
  /** The scenario it was started with, if any. */
  readonly scenario?: string;
  /** The model, as its label reads. */
  readonly model: string;
  readonly status: RunStatus;
  /** ISO timestamps. */
  readonly createdAt: string;
  readonly finishedAt?: string;
  readonly finalAnswer?: string;
  /** Why it ended: the agent runner's reason, or the model's STOP. */
  readonly reason?: AgentStopReason;
}

/** What changes when a run ends. */
export type RunCompletion = Pick<RunRecord, 'status' | 'finishedAt' | 'finalAnswer' | 'reason'>;
