import { Injectable } from '@nestjs/common';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Limits how many calls of a tool run at once (`@Tool({ bulkhead })`): a call beyond the
 * limit waits in the queue, or fails at once with `bulkhead_full` when the queue is full too.
 * A queued call leaves the queue when its caller aborts or its attempt times out.
 *
 * @internal
 */
@Injectable()
export class BulkheadLayer implements ToolPolicyLayer {
  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const bulkhead = state.policies.bulkhead;
    return bulkhead ? bulkhead.execute(() => inner(call, state), state.signal) : inner(call, state);
  }
}
