import { Injectable } from '@nestjs/common';
import type { ToolCircuitBreaker } from '@toolshield/core';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { ToolErrorClassifier } from '../../execution/tool-error-classifier.js';
import { ToolCircuitBreakers } from '../tool-circuit-breakers.service.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Runs each attempt through the tool's circuit breaker (one per tool, or per key taken from
 * the call): while the breaker is open the attempt fails fast with `circuit_open` and
 * `retryAfterMs`, without calling the tool. Neutral errors (invalid input, not found, ...)
 * count neither as failure nor as success.
 *
 * @internal
 */
@Injectable()
export class CircuitBreakerLayer implements ToolPolicyLayer {
  constructor(
    private readonly breakers: ToolCircuitBreakers,
    private readonly classifier: ToolErrorClassifier,
  ) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const policy = state.policies.breaker;
    if (!policy) return inner();
    const name = policy.name ?? call.toolName;
    const key = policy.key ? `${name}:${policy.key(call, state.args)}` : name;
    const breaker = this.breakers.acquire(key, name, policy.options);
    const run = (target: ToolCircuitBreaker) =>
      target.execute(() =>
        inner().catch((error: unknown) => {
          throw this.classifier.classify(error);
        }),
      );
    return (breaker instanceof Promise ? breaker.then(run) : run(breaker)).catch(
      (error: unknown) => {
        throw this.classifier.original(error);
      },
    );
  }
}
