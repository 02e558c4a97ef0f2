import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { from, type Observable } from 'rxjs';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
import { runInner } from '../policies/observable-promise.js';

/**
 * Limits how many calls of a tool run at once (`@Tool({ bulkhead })`): a call beyond the
 * limit waits in the queue, or fails at once with `bulkhead_full` when the queue is full too.
 * A queued call leaves the queue when its caller aborts or its attempt times out.
 *
 * @publicApi
 */
@Injectable()
export class BulkheadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    const bulkhead = state?.policies.bulkhead;
    if (!state || !bulkhead) return next.handle();
    return from(bulkhead.execute(() => runInner(() => next.handle()), state.signal));
  }
}
