import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import type { ToolEvent, ToolOutcome } from '@toolshield/core';
import {
  EXECUTE_TOOL_OPERATION,
  ToolShieldAttributes as A,
  ToolShieldMetrics as M,
} from './telemetry.constants.js';

/** The GenAI conventions' advised buckets for durations in seconds. */
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/**
 * Turns the executor's events into metrics: the call duration histogram of the GenAI
 * conventions (`gen_ai.execute_tool.duration`, seconds, with `error.type` on failures), and
 * counters of attempts, retries, retries withheld by the retry budget and breaker transitions.
 *
 * @internal
 */
export class ToolMetrics {
  private readonly duration: Histogram;
  private readonly attempts: Counter;
  private readonly retries: Counter;
  private readonly withheld: Counter;
  private readonly transitions: Counter;

  constructor(meter: Meter) {
    this.duration = meter.createHistogram(M.CALL_DURATION, {
      description: 'Duration of tool calls, all attempts and waits included.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.attempts = meter.createCounter(M.ATTEMPTS, {
      description: 'Attempts made by tool calls.',
      unit: '{attempt}',
    });
    this.retries = meter.createCounter(M.RETRIES, {
      description: 'Retries scheduled after failed attempts.',
      unit: '{retry}',
    });
    this.withheld = meter.createCounter(M.RETRIES_WITHHELD, {
      description: 'Retries withheld because the upstream retry budget was spent.',
      unit: '{retry}',
    });
    this.transitions = meter.createCounter(M.BREAKER_TRANSITIONS, {
      description: 'Circuit breaker state changes.',
      unit: '{transition}',
    });
  }

  handle(event: ToolEvent): void {
    switch (event.type) {
      case 'retry.scheduled':
        this.retries.add(1, { [A.TOOL_NAME]: event.tool, [A.ERROR_TYPE]: event.errorType });
        return;
      case 'retry.withheld':
        this.withheld.add(1, { [A.TOOL_NAME]: event.tool, [A.ERROR_TYPE]: event.errorType });
        return;
      case 'breaker.state_changed':
        this.transitions.add(1, {
          [A.TOOL_NAME]: event.tool,
          [A.BREAKER_FROM]: event.from,
          [A.BREAKER_TO]: event.to,
        });
        return;
      case 'call.succeeded':
        return this.ended(event.result);
      case 'call.failed':
        return this.ended(event.failure);
      default:
        return;
    }
  }

  private ended(outcome: ToolOutcome): void {
    const attributes: Attributes = {
      [A.OPERATION_NAME]: EXECUTE_TOOL_OPERATION,
      [A.TOOL_NAME]: outcome.tool,
      ...(outcome.success ? {} : { [A.ERROR_TYPE]: outcome.errorType }),
    };
    this.duration.record(outcome.metadata.durationMs / 1_000, attributes);
    this.attempts.add(outcome.metadata.attempts, { [A.TOOL_NAME]: outcome.tool });
  }
}
