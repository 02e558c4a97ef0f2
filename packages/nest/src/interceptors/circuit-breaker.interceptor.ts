import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { ToolCircuitBreaker } from '@toolshield/core';
import { from, type Observable } from 'rxjs';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
import { ToolErrorClassifier } from '../execution/tool-error-classifier.js';
import { runInner } from '../policies/observable-promise.js';
import { ToolCircuitBreakers } from '../policies/tool-circuit-breakers.service.js';

/**
 * Runs each attempt through the tool's circuit breaker (one per tool, or per key taken from
 * the call): while the breaker is open the attempt fails fast with `circuit_open` and
 * `retryAfterMs`, without calling the tool. Neutral errors (invalid input, not found, ...)
 * count neither as failure nor as success.
 *
 * @publicApi
 */
@Injectable()
export class CircuitBreakerInterceptor implements NestInterceptor {
  constructor(
    private readonly breakers: ToolCircuitBreakers,
    private readonly classifier: ToolErrorClassifier,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    const policy = state?.policies.breaker;
    if (!state || !policy) return next.handle();
    const key = policy.key ? `${call.toolName}:${policy.key(call, state.args)}` : call.toolName;
    const breaker = this.breakers.acquire(key, call.toolName, policy.options);
    const run = (target: ToolCircuitBreaker) =>
      target.execute(() =>
        runInner(() => next.handle()).catch((error: unknown) => {
          throw this.classifier.classify(error);
        }),
      );
    const attempt = (breaker instanceof Promise ? breaker.then(run) : run(breaker)).catch(
      (error: unknown) => {
        throw this.classifier.original(error);
      },
    );
    return from(attempt);
  }
}
