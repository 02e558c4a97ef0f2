import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { ToolFailure, ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import { EXECUTE_TOOL_OPERATION, ToolShieldAttributes as A } from './telemetry.constants.js';
import type { ToolNameLabel } from './tool-name-label.js';

interface OpenCall {
  readonly span: Span;
  readonly context: Context;
  readonly tool: string;
  attempt?: Span;
}

/**
 * Turns the executor's events into spans: one `execute_tool {tool}` span per call (the
 * OpenTelemetry GenAI tool-execution span) and, optionally, a `tool_attempt {tool}` child per
 * attempt. Attempt spans carry no `gen_ai.operation.name`, so backends count one tool
 * execution per call however many attempts it took. Span times are the module clock's. The
 * tool name goes through `label` (span names are aggregated too); a call of a tool that does
 * not exist keeps the requested name in `toolshield.tool.requested_name`.
 *
 * @internal
 */
export class ToolCallTracer {
  private readonly calls = new Map<string, OpenCall>();

  constructor(
    private readonly tracer: Tracer,
    private readonly attemptSpans: boolean,
    private readonly label: ToolNameLabel,
  ) {}

  handle(event: ToolEvent): void {
    switch (event.type) {
      case 'call.started':
        return this.start(event.callId, event.tool, event.at);
      case 'attempt.failed':
        return this.endAttempt(event.callId, event.at, event.errorType, event.message, event.chaos);
      case 'retry.scheduled':
        return this.startAttempt(event.callId, event.attempt, event.at + event.delayMs);
      case 'retry.withheld':
        this.calls
          .get(event.callId)
          ?.span.addEvent(
            'toolshield.retry.withheld',
            { [A.RETRY_BUDGET_KEY]: event.key, [A.ERROR_TYPE]: event.errorType },
            event.at,
          );
        return;
      case 'chaos.injected':
        this.calls
          .get(event.callId)
          ?.span.addEvent('toolshield.chaos.injected', { [A.CHAOS_FAULT]: event.fault }, event.at);
        return;
      case 'call.succeeded':
      case 'call.failed':
        return this.end(event.type === 'call.succeeded' ? event.result : event.failure, event.at);
      case 'breaker.state_changed':
        return;
    }
  }

  /** Ends the spans of calls still running (the application is closing). */
  endAll(at: number): void {
    for (const call of this.calls.values()) {
      call.attempt?.end(at);
      call.span.end(at);
    }
    this.calls.clear();
  }

  private start(callId: string, requested: string, at: number): void {
    const tool = this.label(requested);
    const span = this.tracer.startSpan(
      `${EXECUTE_TOOL_OPERATION} ${tool}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: at,
        attributes: {
          [A.OPERATION_NAME]: EXECUTE_TOOL_OPERATION,
          [A.TOOL_NAME]: tool,
          [A.TOOL_CALL_ID]: callId,
          [A.TOOL_TYPE]: 'function',
          ...(tool === requested ? {} : { [A.REQUESTED_TOOL_NAME]: requested }),
        },
      },
      otelContext.active(),
    );
    const call: OpenCall = { span, context: trace.setSpan(otelContext.active(), span), tool };
    this.calls.set(callId, call);
    this.startAttempt(callId, 1, at);
  }

  private startAttempt(callId: string, attempt: number, at: number): void {
    const call = this.calls.get(callId);
    if (!call || !this.attemptSpans) return;
    call.attempt = this.tracer.startSpan(
      `tool_attempt ${call.tool}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: at,
        attributes: { [A.TOOL_NAME]: call.tool, [A.TOOL_CALL_ID]: callId, [A.ATTEMPT]: attempt },
      },
      call.context,
    );
  }

  private endAttempt(
    callId: string,
    at: number,
    errorType: string | undefined,
    message?: string,
    chaos?: boolean,
  ): void {
    const call = this.calls.get(callId);
    const span = call?.attempt;
    if (!call || !span) return;
    call.attempt = undefined;
    if (errorType !== undefined) {
      span.setAttribute(A.ERROR_TYPE, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    if (chaos) span.setAttribute(A.CHAOS, true);
    span.end(at);
  }

  private end(outcome: ToolOutcome, at: number): void {
    const call = this.calls.get(outcome.callId);
    if (!call) return;
    const failure = outcome.success ? undefined : (outcome as ToolFailure);
    this.endAttempt(outcome.callId, at, failure?.errorType, failure?.error);
    this.calls.delete(outcome.callId);
    const { span } = call;
    span.setAttribute(A.ATTEMPTS, outcome.metadata.attempts);
    if (failure) {
      span.setAttributes({
        [A.ERROR_TYPE]: failure.errorType,
        [A.RETRY_COUNT]: failure.retryCount,
        [A.RECOVERABLE]: failure.recoverable,
        ...(failure.retryAfterMs === undefined ? {} : { [A.RETRY_AFTER_MS]: failure.retryAfterMs }),
      });
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.error });
    }
    span.end(at);
  }
}
