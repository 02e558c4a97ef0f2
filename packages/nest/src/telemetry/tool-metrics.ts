import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { ToolOutcome } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import {
  EXECUTE_TOOL_OPERATION,
  ToolShieldAttributes as A,
  ToolShieldMetrics as M,
} from './telemetry.constants.js';
import { OutcomeSeries } from './outcome-series.js';
import { TalliedCounter, type Tally } from './tallied-counter.js';
import type { ToolNameLabel } from './tool-name-label.js';

/** The GenAI conventions' advised buckets for durations in seconds. @internal */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/**
 * Turns the executor's events into metrics: the call duration histogram of the GenAI
 * conventions (`gen_ai.execute_tool.duration`, seconds, with `error.type` on failures), and
 * counters of attempts, retries, retries withheld by the retry budget and breaker transitions.
 * A call's tool name is recorded through `label`, which bounds the names a model invents.
 */
export class ToolMetrics {
  private readonly duration: Histogram;
  private readonly attempts: TalliedCounter;
  private readonly retries: TalliedCounter;
  private readonly withheld: TalliedCounter;
  private readonly transitions: TalliedCounter;
  /** Per tool and error type: the call-duration attributes and the tool's attempt tally. */
  private readonly outcomes = new OutcomeSeries<{ duration: Attributes; attempts: Tally }>(
    (tool, errorType) => ({
      duration: {
        [A.OPERATION_NAME]: EXECUTE_TOOL_OPERATION,
        [A.TOOL_NAME]: tool,
        ...(errorType === undefined ? {} : { [A.ERROR_TYPE]: errorType }),
      },
      attempts: this.attempts.tally(tool, () => ({ [A.TOOL_NAME]: tool })),
    }),
  );

  constructor(
    meter: Meter,
    private readonly label: ToolNameLabel,
  ) {
    this.duration = meter.createHistogram(M.CALL_DURATION, {
      description: 'Duration of tool calls, all attempts and waits included.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.attempts = new TalliedCounter(meter, M.ATTEMPTS, {
      description: 'Attempts made by tool calls.',
      unit: '{attempt}',
    });
    this.retries = new TalliedCounter(meter, M.RETRIES, {
      description: 'Retries scheduled after failed attempts.',
      unit: '{retry}',
    });
    this.withheld = new TalliedCounter(meter, M.RETRIES_WITHHELD, {
      description: 'Retries withheld because the upstream retry budget was spent.',
      unit: '{retry}',
    });
    this.transitions = new TalliedCounter(meter, M.BREAKER_TRANSITIONS, {
      description: 'Circuit breaker state changes.',
      unit: '{transition}',
    });
  }

  handle(event: ToolEvent): void {
    switch (event.type) {
      case 'retry.scheduled':
        this.retries.add(1, `${event.tool}\u0000${event.errorType}`, () => ({
          [A.TOOL_NAME]: event.tool,
          [A.ERROR_TYPE]: event.errorType,
        }));
        return;
      case 'retry.withheld':
        this.withheld.add(1, `${event.tool}\u0000${event.errorType}`, () => ({
          [A.TOOL_NAME]: event.tool,
          [A.ERROR_TYPE]: event.errorType,
        }));
        return;
      case 'breaker.state_changed':
        this.transitions.add(1, `${event.tool}\u0000${event.from}\u0000${event.to}`, () => ({
          [A.TOOL_NAME]: event.tool,
          [A.BREAKER_FROM]: event.from,
          [A.BREAKER_TO]: event.to,
        }));
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
    const tool = this.label(outcome.tool);
    const series = this.outcomes.of(tool, outcome.success ? undefined : outcome.errorType);
    this.duration.record(outcome.metadata.durationMs / 1_000, series.duration);
    series.attempts.value += outcome.metadata.attempts;
  }
}
