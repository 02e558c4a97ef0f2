import { type ToolCallRequest } from '@toolshield/core';
import { toolCallFingerprint } from '@toolshield/core/agent';
import type { RunEvent } from './run-event.js';

/** A call's key when nothing carries over: the run's id and the call's. */
export function idempotencyKeyOf(runId: string, callId: string): string {
  return `${runId}:${callId}`;
}

/**
 * The idempotency keys of one run's tool calls. A call has `<run id>:<call id>`, the same on
 * every attempt. A call the run's events show started and never finished (the worker died,
 * or a shutdown cancelled it) may have taken effect upstream; when the model makes the same
 * call again (same tool, same arguments), the repeat gets the interrupted call's key, so an
 * upstream that honours `Idempotency-Key` answers with the first result instead of acting
 * twice. Each interrupted key is handed out once.
 */
export class RunIdempotencyKeys {
  private readonly interrupted = new Map<string, string[]>();

  constructor(
    private readonly runId: string,
    past: readonly RunEvent[] = [],
  ) {
    const requested = new Map<string, { fingerprint: string; key: string }>();
    for (const { data } of past) {
      if (data.type === 'tool.requested') {
        requested.set(data.callId, {
          fingerprint: toolCallFingerprint({ name: data.tool, arguments: data.arguments }),
          key: data.idempotencyKey ?? idempotencyKeyOf(runId, data.callId),
        });
      } else if (data.type === 'call.succeeded') {
        requested.delete(data.callId);
      } else if (data.type === 'call.failed' && data.failure.errorType !== 'cancelled') {
        requested.delete(data.callId);
      }
    }
    for (const { fingerprint, key } of requested.values()) {
      this.interrupted.set(fingerprint, [...(this.interrupted.get(fingerprint) ?? []), key]);
    }
  }

  /** The key for `call` (which has its id): an interrupted twin's, or its own. */
  keyFor(call: ToolCallRequest & { readonly id: string }): string {
    const fingerprint = toolCallFingerprint(call);
    const keys = this.interrupted.get(fingerprint);
    const carried = keys?.shift();
    if (keys?.length === 0) this.interrupted.delete(fingerprint);
    return carried ?? idempotencyKeyOf(this.runId, call.id);
  }
}
