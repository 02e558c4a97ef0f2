import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { retry, type Clock, type RetryInfo } from '@toolshield/core';
import { from, type Observable } from 'rxjs';
import { toolCallState, type MutableToolCallContext } from '../execution/tool-call-state.js';
import { ToolErrorClassifier } from '../execution/tool-error-classifier.js';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import { runInner } from '../policies/observable-promise.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * Retries a tool's failed attempts per its retry policy (`@Retryable()`, or the module's
 * default for idempotent tools), waiting on the module's clock. Each attempt re-runs the
 * inner policies, the pipes and the method, with `ToolCallContext.attempt` moved on.
 * Reports `attempt.failed` and `retry.scheduled` events, and keeps `retryMax` truthful.
 *
 * @publicApi
 */
@Injectable()
export class RetryInterceptor implements NestInterceptor {
  constructor(
    private readonly classifier: ToolErrorClassifier,
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const call = context.getArgByIndex<MutableToolCallContext>(1);
    const state = toolCallState(call);
    const policy = state?.policies.retry;
    if (!state || !policy) return next.handle();
    state.retryMax = policy.maxRetries;
    // The caller's signal, or an outer timeout's when the policy order puts one outside:
    // either ends the waits between attempts.
    const signal = state.signal;
    const base = { callId: call.callId, tool: call.toolName };

    const attempt = async (attemptNumber: number) => {
      call.attempt = attemptNumber;
      try {
        return await runInner(() => next.handle());
      } catch (error) {
        const toolError = this.classifier.classify(error);
        this.events.emit({
          ...base,
          type: 'attempt.failed',
          at: this.clock.now(),
          attempt: attemptNumber,
          errorType: toolError.type,
          message: toolError.message,
          ...(toolError.metadata.chaos === true ? { chaos: true } : {}),
        });
        throw toolError;
      }
    };
    const onRetry = (info: RetryInfo) => {
      this.events.emit({
        ...base,
        type: 'retry.scheduled',
        at: this.clock.now(),
        attempt: info.attempt + 1,
        delayMs: info.delayMs,
        errorType: info.error === undefined ? 'invalid_output' : this.classifier.classify(info.error).type,
      });
      policy.onRetry?.(info);
    };
    return from(
      retry(attempt, { ...policy, onRetry }, { clock: this.clock, signal }).catch(
        (error: unknown) => {
          throw this.classifier.original(error);
        },
      ),
    );
  }
}
