import { Injectable } from '@nestjs/common';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { breakerKeyOf } from '../retry-budget-key.js';
import { ToolCircuitBreakers } from '../tool-circuit-breakers.service.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Runs each attempt through the tool's circuit breaker (one per tool, or per key taken from
 * the call): while the breaker is open the attempt fails fast with `circuit_open` and
 * `retryAfterMs`, without calling the tool. Neutral errors (invalid input, not found, ...)
 * count neither as failure nor as success, and so does an attempt ended by the caller's abort
 * (whatever its reason), whose half-open trial slot stays taken until the tool has settled or
 * passed its deadline. While closed it counts calls, not attempts: a failed attempt that is
 * retried counts only if the call fails in the end (the executor commits it then).
 *
 * @internal
 */
@Injectable()
export class CircuitBreakerLayer implements ToolPolicyLayer {
  constructor(private readonly breakers: ToolCircuitBreakers) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const policy = state.policies.breaker;
    if (!policy) return inner(call, state);
    const breaker = this.breakers.acquire(
      breakerKeyOf(policy, call, state.args),
      policy.name ?? call.toolName,
      policy.options,
    );
    state.abandoned = undefined;
    state.pendingFailure = undefined; // a new attempt: the last one's failure was retried
    const run = () => inner(call, state);
    return breaker instanceof Promise
      ? breaker.then((target) => target.execute(run, state))
      : breaker.execute(run, state);
  }
}
