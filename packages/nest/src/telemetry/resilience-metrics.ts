import type { Attributes, Histogram, Meter, ObservableResult } from '@opentelemetry/api';
import type { ToolOutcome } from '@toolshield/core';
import type { CircuitState, ToolEvent } from '@toolshield/core/events';
import {
  EXECUTE_TOOL_OPERATION,
  ToolShieldAttributes as A,
  ToolShieldMetrics as M,
} from './telemetry.constants.js';
import { OutcomeSeries } from './outcome-series.js';
import { TalliedCounter, type Tally } from './tallied-counter.js';
import { DURATION_BUCKETS } from './tool-metrics.js';
import type { ToolNameLabel } from './tool-name-label.js';

const BREAKER_STATES: readonly CircuitState[] = ['closed', 'open', 'half_open', 'isolated'];

/** A retried call's next attempt has not started: its last failure is already recorded. */
const NO_NEXT_ATTEMPT = Number.NaN;

/**
 * The resilience layer's own metrics, next to {@link ToolMetrics}: calls by outcome and
 * `error.type`, the duration of each attempt, each breaker's current state (a gauge per key
 * and state, 1 for the state it is in), client-side rate-limit waits and refusals, each
 * limiter's current rate, and injected faults. A call's tool name is recorded through `label`,
 * which bounds the names a model invents.
 */
export class ResilienceMetrics {
  private readonly calls: TalliedCounter;
  private readonly attemptDuration: Histogram;
  private readonly rateLimitWaits: TalliedCounter;
  private readonly rateLimitWaitDuration: Histogram;
  private readonly rateLimitRefusals: TalliedCounter;
  private readonly chaosInjections: TalliedCounter;
  /**
   * Per tool and error type: the attempt-duration attributes, and the calls tally once a call
   * ended so (a failed attempt alone is no call of that outcome).
   */
  private readonly outcomes = new OutcomeSeries<{ attempt: Attributes; calls?: Tally }>(
    (tool, errorType) => ({
      attempt: {
        [A.TOOL_NAME]: tool,
        ...(errorType === undefined ? {} : { [A.ERROR_TYPE]: errorType }),
      },
    }),
  );
  /**
   * Calls with a failed attempt, while they run: when their next attempt starts, or
   * {@link NO_NEXT_ATTEMPT}. A call never retried needs no entry: its one attempt lasted as
   * long as the call.
   */
  private readonly retried = new Map<string, number>();
  private readonly breakers = new Map<string, { tool: string; state: CircuitState }>();
  private readonly rates = new Map<string, number>();

  constructor(
    meter: Meter,
    private readonly label: ToolNameLabel,
  ) {
    this.calls = new TalliedCounter(meter, M.CALLS, {
      description: 'Tool calls by outcome (and error.type for failures).',
      unit: '{call}',
    });
    this.attemptDuration = meter.createHistogram(M.ATTEMPT_DURATION, {
      description: 'Duration of single attempts of tool calls, waits between them excluded.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.rateLimitWaits = new TalliedCounter(meter, M.RATE_LIMIT_WAITS, {
      description: 'Calls that waited their turn at a client-side rate limiter.',
      unit: '{wait}',
    });
    this.rateLimitWaitDuration = meter.createHistogram(M.RATE_LIMIT_WAIT_DURATION, {
      description: 'How long calls expected to wait at a client-side rate limiter.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.rateLimitRefusals = new TalliedCounter(meter, M.RATE_LIMIT_REFUSALS, {
      description: 'Calls a client-side rate limiter refused (the wait passed their deadline).',
      unit: '{call}',
    });
    this.chaosInjections = new TalliedCounter(meter, M.CHAOS_INJECTIONS, {
      description: 'Faults injected by the chaos package.',
      unit: '{fault}',
    });
    meter
      .createObservableGauge(M.BREAKER_STATE, {
        description: 'Circuit breaker state per key: 1 for the state it is in, 0 for the others.',
        unit: '1',
      })
      .addCallback((result) => this.observeBreakers(result));
    meter
      .createObservableGauge(M.RATE_LIMIT_RATE, {
        description: 'Current rate of each client-side rate limiter (learned, when adaptive).',
        unit: '{call}/s',
      })
      .addCallback((result) => {
        for (const [key, rate] of this.rates) result.observe(rate, { [A.RATE_LIMIT_KEY]: key });
      });
  }

  handle(event: ToolEvent): void {
    switch (event.type) {
      case 'attempt.failed':
        this.recordAttempt(event.tool, event.errorType, event.at - event.startedAt);
        this.retried.set(event.callId, NO_NEXT_ATTEMPT);
        return;
      case 'retry.scheduled':
        this.retried.set(event.callId, event.at + event.delayMs);
        return;
      case 'call.succeeded':
        return this.ended(event.result, event.at);
      case 'call.failed':
        return this.ended(event.failure, event.at);
      case 'breaker.state_changed':
        this.breakers.set(event.key, { tool: event.tool, state: event.to });
        return;
      case 'rate_limit.waiting': {
        const attributes = () => ({ [A.TOOL_NAME]: event.tool, [A.RATE_LIMIT_KEY]: event.key });
        this.rateLimitWaits.add(1, `${event.tool}\u0000${event.key}`, attributes);
        this.rateLimitWaitDuration.record(event.waitMs / 1_000, attributes());
        return;
      }
      case 'rate_limit.refused':
        this.rateLimitRefusals.add(1, `${event.tool}\u0000${event.key}`, () => ({
          [A.TOOL_NAME]: event.tool,
          [A.RATE_LIMIT_KEY]: event.key,
        }));
        return;
      case 'rate_limit.changed':
        this.rates.set(event.key, event.rate);
        return;
      case 'chaos.injected':
        this.chaosInjections.add(
          1,
          `${event.tool}\u0000${event.fault}\u0000${event.rule ?? ''}`,
          () => ({
            [A.TOOL_NAME]: event.tool,
            [A.CHAOS_FAULT]: event.fault,
            ...(event.rule === undefined ? {} : { [A.CHAOS_RULE]: event.rule }),
          }),
        );
        return;
      default:
        return;
    }
  }

  private recordAttempt(tool: string, errorType: string | undefined, durationMs: number): void {
    this.attemptDuration.record(
      Math.max(0, durationMs) / 1_000,
      this.outcomes.of(tool, errorType).attempt,
    );
  }

  private ended(outcome: ToolOutcome, at: number): void {
    const errorType = outcome.success ? undefined : outcome.errorType;
    const tool = this.label(outcome.tool);
    const series = this.outcomes.of(tool, errorType);
    series.calls ??= this.callsTally(tool, errorType);
    series.calls.value += 1;
    // The last attempt ends with the call, unless its failure was recorded already.
    const nextAttemptAt = this.retried.get(outcome.callId);
    if (nextAttemptAt === undefined) {
      this.attemptDuration.record(outcome.metadata.durationMs / 1_000, series.attempt);
      return;
    }
    this.retried.delete(outcome.callId);
    if (!Number.isNaN(nextAttemptAt)) this.recordAttempt(tool, errorType, at - nextAttemptAt);
  }

  private callsTally(tool: string, errorType: string | undefined): Tally {
    return this.calls.tally(`${tool}\u0000${errorType ?? ''}`, () => ({
      [A.OPERATION_NAME]: EXECUTE_TOOL_OPERATION,
      [A.TOOL_NAME]: tool,
      [A.OUTCOME]: errorType === undefined ? 'success' : 'failure',
      ...(errorType === undefined ? {} : { [A.ERROR_TYPE]: errorType }),
    }));
  }

  private observeBreakers(result: ObservableResult): void {
    for (const [key, { tool, state }] of this.breakers) {
      for (const candidate of BREAKER_STATES) {
        result.observe(candidate === state ? 1 : 0, {
          [A.BREAKER_KEY]: key,
          [A.TOOL_NAME]: tool,
          [A.BREAKER_STATE]: candidate,
        });
      }
    }
  }
}
