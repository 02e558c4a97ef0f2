import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Clock, ToolCallContext, ToolErrorType, ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import type { ToolErrorClassifier } from '@toolshield/nest/internal';
import { tap, type Observable } from 'rxjs';
import type { RecordedAttempt, RecordedCall } from './recorded-run.js';

interface AttemptRecord {
  attempt: number;
  startedAt: number;
  toolInvoked: boolean;
  failedAt?: number;
  errorType?: ToolErrorType;
  retryAfterMs?: number;
}

interface CallRecord {
  readonly callId: string;
  readonly tool: string;
  readonly startedAt: number;
  readonly attempts: AttemptRecord[];
  readonly outcomes: ToolOutcome[];
  readonly rejections: unknown[];
}

/**
 * Records what happens to each call of one harness run. Its {@link interceptor} sits just
 * outside the chaos interceptor, so it sees every attempt that got past the policies (the
 * attempt "invoked the tool": chaos stands in for the tool's dependency), and how it failed;
 * the executor's `attempt.failed` events add the attempts that never got that far (an open
 * breaker, a full bulkhead) and say how each attempt ended for the retry policy.
 */
export class CallRecorder {
  readonly events: ToolEvent[] = [];
  private readonly calls = new Map<string, CallRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly classifier: ToolErrorClassifier,
  ) {}

  /** The interceptor to put innermost, before the chaos interceptor. */
  readonly interceptor: NestInterceptor = {
    intercept: (context: ExecutionContext, next: CallHandler): Observable<unknown> => {
      const call = context.getArgByIndex<ToolCallContext>(1);
      const attempt: AttemptRecord = {
        attempt: call.attempt,
        startedAt: this.clock.now(),
        toolInvoked: true,
      };
      this.calls.get(call.callId)?.attempts.push(attempt);
      return next.handle().pipe(
        tap({
          error: (error: unknown) => {
            const toolError = this.classifier.classify(error);
            attempt.failedAt = this.clock.now();
            attempt.errorType = toolError.type;
            if (toolError.retryAfterMs !== undefined) attempt.retryAfterMs = toolError.retryAfterMs;
          },
        }),
      );
    },
  };

  /** Starts recording a call made now. */
  open(
    callId: string,
    tool: string,
  ): { outcome(value: ToolOutcome): void; rejection(error: unknown): void } {
    const record: CallRecord = {
      callId,
      tool,
      startedAt: this.clock.now(),
      attempts: [],
      outcomes: [],
      rejections: [],
    };
    this.calls.set(callId, record);
    return {
      outcome: (value) => record.outcomes.push(value),
      rejection: (error) => record.rejections.push(error),
    };
  }

  /** Takes in one executor event. */
  onEvent(event: ToolEvent): void {
    this.events.push(event);
    if (event.type !== 'attempt.failed') return;
    const attempts = this.calls.get(event.callId)?.attempts;
    if (!attempts) return;
    const seen = attempts.findLast((attempt) => attempt.attempt === event.attempt);
    if (seen) {
      seen.failedAt = event.at;
      if (seen.errorType !== event.errorType) delete seen.retryAfterMs;
      seen.errorType = event.errorType;
    } else {
      attempts.push({
        attempt: event.attempt,
        startedAt: event.at,
        toolInvoked: false,
        failedAt: event.at,
        errorType: event.errorType,
      });
    }
  }

  /** Every call recorded, in the order made. */
  recordedCalls(): RecordedCall[] {
    return [...this.calls.values()].map((record) => {
      const failure = record.outcomes.find((outcome) => outcome.success === false);
      return {
        callId: record.callId,
        tool: record.tool,
        startedAt: record.startedAt,
        ...(failure === undefined ? {} : { retryMax: failure.retryMax }),
        attempts: record.attempts as RecordedAttempt[],
        outcomes: record.outcomes,
        rejections: record.rejections,
      };
    });
  }
}
