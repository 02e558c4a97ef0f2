import type { ToolEvent } from '@toolshield/core/events';

/** A call a run waits on, as `run.awaiting_approval` and `GET /api/approvals` show it. */
export interface RunApprovalRequest {
  /** The approval's id: `POST /api/approvals/:id` decides it. */
  readonly id: string;
  readonly tool: string;
  readonly callId: string;
  /** The call's arguments, redacted like failures are. */
  readonly args: unknown;
  /** When it expires unanswered, ms since the epoch. */
  readonly expiresAt: number;
}

/** The run's own events, next to the executor's tool events. */
export type RunLifecycleEvent =
  | {
      readonly type: 'run.started';
      readonly task: string;
      readonly scenario?: string;
      readonly model: string;
    }
  | {
      readonly type: 'run.resumed';
      /** Calls the interruption left without a result. */
      readonly repaired: number;
      /** The instance that took the run over (queue setup). */
      readonly instance?: string;
    }
  | {
      /** The instance stopped working the run (shutdown) and put it back on the queue. */
      readonly type: 'run.handed_back';
      readonly instance: string;
    }
  | { readonly type: 'model.request'; readonly step: number; readonly messages: number }
  | {
      readonly type: 'model.reply';
      readonly step: number;
      readonly content: string;
      readonly toolCalls: readonly { id: string; name: string; arguments: string }[];
    }
  | { readonly type: 'model.failed'; readonly step: number; readonly error: string }
  | { readonly type: 'decision.prompt'; readonly content: string }
  | {
      readonly type: 'tool.requested';
      readonly callId: string;
      readonly tool: string;
      readonly arguments: string;
      /** The key the tool sends upstream; a repeat of an interrupted call carries its key. */
      readonly idempotencyKey?: string;
    }
  | {
      readonly type: 'tool.result';
      readonly callId: string;
      readonly tool: string;
      readonly isError: boolean;
      /** The result exactly as the model reads it. */
      readonly content: string;
    }
  | {
      /**
       * A call waits for a person's approval: the run holds no worker until every call it
       * waits for is decided (or expired), then resumes on any instance.
       */
      readonly type: 'run.awaiting_approval';
      readonly approvals: readonly RunApprovalRequest[];
    }
  | {
      readonly type: 'run.finished';
      readonly status: string;
      readonly reason: { readonly code: string; readonly message: string; readonly tool?: string };
      readonly finalAnswer: string;
    };

/** Everything in a run's event stream. */
export type RunEventData = RunLifecycleEvent | ToolEvent;

/** One event of a run, numbered from 1 in the order it happened (the SSE id). */
export interface RunEvent {
  readonly runId: string;
  readonly seq: number;
  /** ms since the epoch. */
  readonly at: number;
  /** The instance that produced it (queue setup; absent when runs stay in one process). */
  readonly instance?: string;
  readonly data: RunEventData;
}

/** Whether an event ends its run's stream. */
export function isRunFinished(event: RunEvent): boolean {
  return event.data.type === 'run.finished';
}

/** Calls a run requested that have no result among its events. */
export function callsInFlight(past: readonly RunEvent[]): number {
  const requested = past.filter((event) => event.data.type === 'tool.requested').length;
  const ended = past.filter(
    (event) => event.data.type === 'call.succeeded' || event.data.type === 'call.failed',
  ).length;
  return Math.max(0, requested - ended);
}
