import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, type Observable } from 'rxjs';
import {
  toolCallState,
  type MutableToolCallContext,
  type ToolCallState,
} from '../execution/tool-call-state.js';
import { runAsAttempt } from '../policies/hedging/hedged-attempt-call.js';
import { runInner } from '../policies/observable-promise.js';
import type { PolicyChain } from '../policies/layers/policy-chain.js';

/**
 * Applies one tool's policies, outermost first (by default Retry(CircuitBreaker(Timeout(
 * Bulkhead(tool))))), as one Nest interceptor: each retry re-runs the inner layers, the
 * interceptors closer to the method (chaos), the pipes and the method. One interceptor for
 * all policies keeps the per-call cost of Nest's interceptor chain to a single link.
 *
 * @internal
 */
export class ToolPolicyInterceptor implements NestInterceptor {
  constructor(private readonly policies: PolicyChain) {}

  /**
   * The innermost part of a tool's policy chain: one run of the rest of Nest's pipeline, as
   * `call` (a hedged attempt's own context, or the call's).
   */
  static attempt(this: void, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const next = state.nestNext;
    if (!next) throw new Error('toolshield: a policy chain ran outside its interceptor');
    return runAsAttempt(call, () => runInner(() => next.handle()));
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    if (!state) return next.handle();
    state.nestNext = next;
    return from(this.policies(call, state));
  }
}
