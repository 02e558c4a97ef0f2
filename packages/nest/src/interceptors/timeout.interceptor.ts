import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { withTimeout, type Clock } from '@toolshield/core';
import { from, type Observable } from 'rxjs';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
import { runInner } from '../policies/observable-promise.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * Gives each attempt its own `AbortSignal` (`ToolCallContext.signal`), aborted when the
 * attempt's time limit passes (`timeout`) or the caller aborts (`cancelled`). The attempt
 * ends at that moment even if the tool ignores the signal; a late result is discarded. The tool
 * keeps its (aborted) signal; the layers around this one, and the next attempt, go on from
 * the caller's.
 *
 * @publicApi
 */
@Injectable()
export class TimeoutInterceptor implements NestInterceptor {
  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    if (!state) return next.handle();
    const outer = state.signal;
    const attempt = withTimeout(
      (signal) => {
        call.signal = signal;
        state.signal = signal;
        return runInner(() => next.handle());
      },
      { timeoutMs: state.policies.timeoutMs, signal: outer, clock: this.clock, toolName: call.toolName },
    );
    return from(
      attempt.finally(() => {
        state.signal = outer;
      }),
    );
  }
}
