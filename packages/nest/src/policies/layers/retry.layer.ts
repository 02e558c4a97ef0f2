import { Inject, Injectable } from '@nestjs/common';
import { type Clock, type RetryInfo, type ToolErrorType } from '@toolshield/core';
import { retry } from '@toolshield/core/internal';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { ToolErrorClassifier } from '../../execution/tool-error-classifier.js';
import { ToolEventBus } from '../../execution/tool-event-bus.js';
import { TOOLSHIELD_CLOCK } from '../../toolshield.constants.js';
import { retryBudgetKeyOf } from '../retry-budget-key.js';
import { ToolRetryBudgets } from '../tool-retry-budgets.service.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Retries a tool's failed attempts per its retry policy (`@Retryable()`, or the module's
 * default for idempotent tools), waiting on the module's clock. Each attempt re-runs the
 * inner policies and the method (not the pipes: they ran once), with `ToolCallContext.attempt`
 * moved on.
 * Each retry is taken from the upstream's retry budget first (when the policy has one): when
 * it is spent, the call ends at once with the attempt's failure and a `retry.withheld` event.
 * Reports `attempt.failed` and `retry.scheduled` events (the call's `retryMax` is set when the
 * executor opens it).
 *
 * @internal
 */
@Injectable()
export class RetryLayer implements ToolPolicyLayer {
  constructor(
    private readonly classifier: ToolErrorClassifier,
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    private readonly budgets: ToolRetryBudgets,
  ) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const policy = state.policies.retry;
    if (!policy) return inner(call, state);
    // The caller's signal, or an outer timeout's when the policy order puts one outside:
    // either ends the waits between attempts.
    const signal = state.signal;
    const base = { callId: call.callId, tool: call.toolName };

    const attempt = async (attemptNumber: number) => {
      const startedAt = attemptNumber === 1 ? state.startedAt : this.clock.now();
      call.attempt = attemptNumber;
      // An inner timeout layer left its (ended) attempt's signal there.
      state.signal = signal;
      try {
        return await inner(call, state);
      } catch (error) {
        const toolError = this.classifier.classify(error);
        this.events.emit({
          ...base,
          type: 'attempt.failed',
          at: this.clock.now(),
          attempt: attemptNumber,
          startedAt,
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
        errorType: this.errorTypeOf(info),
      });
      policy.onRetry?.(info);
    };
    const budget =
      policy.retryBudget &&
      this.budgets.gate(retryBudgetKeyOf(state.policies, call, state.args), policy.retryBudget);
    const onWithheld = (info: RetryInfo) => {
      state.retriesWithheld = true;
      this.events.emit({
        ...base,
        type: 'retry.withheld',
        at: this.clock.now(),
        attempt: info.attempt,
        key: budget?.key ?? call.toolName,
        errorType: this.errorTypeOf(info),
      });
    };
    const context = { clock: this.clock, signal, startedAt: state.startedAt, budget, onWithheld };
    return retry(attempt, { ...policy, onRetry }, context).catch((error: unknown) => {
      throw this.classifier.original(error);
    });
  }

  /** The type of a failed attempt, or `invalid_output` for a result `retryOnResult` refused. */
  private errorTypeOf(info: RetryInfo): ToolErrorType {
    return info.error === undefined ? 'invalid_output' : this.classifier.classify(info.error).type;
  }
}
