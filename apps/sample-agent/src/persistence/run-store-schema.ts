import type { Generated } from 'kysely';

/** The `runs` table: one row a run. */
export interface RunsTable {
  id: string;
  task: string;
  scenario: string | null;
  model: string;
  status: string;
  created_at: string;
  finished_at: string | null;
  final_answer: string | null;
  /** JSON of the `AgentStopReason`. */
  reason: string | null;
  /** The `Idempotency-Key` it was started with (unique), and its request's fingerprint. */
  idempotency_key: Generated<string | null>;
  request_fingerprint: Generated<string | null>;
}

/** The `run_events` table: every event of every run, keyed by run and sequence number. */
export interface RunEventsTable {
  run_id: string;
  seq: number;
  at: number;
  /** The instance that produced it (queue setup), else null. */
  instance: string | null;
  /** JSON of the event's data. */
  data: string;
}

/** The `conversations` table: the `ToolCallLedgerStore` (a conversation's whole history). */
export interface ConversationsTable {
  id: string;
  /** JSON of the `ConversationMessage[]`. */
  messages: string;
  updated_at: string;
}

/** The `approvals` table: the tool calls that wait for a person (core's `ApprovalRecord`). */
export interface ApprovalsTable {
  id: string;
  /** The run (conversation) of the call, if any. */
  run_id: string | null;
  tool: string;
  call_id: string;
  /** JSON of the validated arguments, unredacted: what the approved call runs with. */
  args: string;
  /** JSON of the arguments redacted like failures: what a person is shown. */
  shown_args: string;
  idempotency_key: string;
  /** JSON of the call's metadata, if any. */
  metadata: string | null;
  /** ms since the epoch. */
  requested_at: number;
  expires_at: number;
  /** `pending`, `approved`, `denied` or `expired` (a pending row past `expires_at` is expired). */
  status: string;
  /** JSON of the `ApprovalDecision`, once settled. */
  decision: string | null;
}

/** The app's database, as Kysely sees it. */
export interface RunDatabase {
  runs: RunsTable;
  run_events: RunEventsTable;
  conversations: ConversationsTable;
  approvals: ApprovalsTable;
}
