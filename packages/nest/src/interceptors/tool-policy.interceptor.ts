import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, type Observable } from 'rxjs';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
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

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    if (!state) return next.handle();
    const attempt = () => runInner(() => next.handle());
    return from(this.policies((own) => runAsAttempt(own, call, attempt), call, state));
  }
}
