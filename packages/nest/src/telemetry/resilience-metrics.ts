import type { Attributes, Histogram, Meter, ObservableResult } from '@opentelemetry/api';
import type { CircuitState, ToolEvent, ToolOutcome } from '@toolshield/core';
import {
  EXECUTE_TOOL_OPERATION,
  ToolShieldAttributes as A,
  ToolShieldMetrics as M,
} from './telemetry.constants.js';
import { TalliedCounter } from './tallied-counter.js';
import { DURATION_BUCKETS } from './tool-metrics.js';

const BREAKER_STATES: readonly CircuitState[] = ['closed', 'open', 'half_open', 'isolated'];

/** Where a call's current attempt started, while the call runs. */
interface RunningCall {
  readonly tool: string;
  attemptStartedAt?: number;
}

/**
 * The resilience layer's own metrics, next to {@link ToolMetrics}: calls by outcome and
 * `error.type`, the duration of each attempt, each breaker's current state (a gauge per key
 * and state, 1 for the state it is in), client-side rate-limit waits and refusals, each
 * limiter's current rate, and injected faults.
 *
 * @internal
 */
export class ResilienceMetrics {
  private readonly calls: TalliedCounter;
  private readonly attemptDuration: Histogram;
  private readonly rateLimitWaits: TalliedCounter;
  private readonly rateLimitWaitDuration: Histogram;
  private readonly rateLimitRefusals: TalliedCounter;
  private readonly chaosInjections: TalliedCounter;
  /** The attributes of each attempt-duration series, made once per tool and error type. */
  private readonly attemptAttributes = new Map<string, Attributes>();
  private readonly running = new Map<string, RunningCall>();
  private readonly breakers = new Map<string, { tool: string; state: CircuitState }>();
  private readonly rates = new Map<string, number>();

  constructor(meter: Meter) {
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
      case 'call.started':
        this.running.set(event.callId, { tool: event.tool, attemptStartedAt: event.at });
        return;
      case 'attempt.failed':
        return this.attemptEnded(event.callId, event.at, event.errorType);
      case 'retry.scheduled': {
        const call = this.running.get(event.callId);
        if (call) call.attemptStartedAt = event.at + event.delayMs;
        return;
      }
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

  private attemptEnded(callId: string, at: number, errorType?: string): void {
    const call = this.running.get(callId);
    if (call?.attemptStartedAt === undefined) return;
    const key = `${call.tool}\u0000${errorType ?? ''}`;
    let attributes = this.attemptAttributes.get(key);
    if (!attributes) {
      attributes = {
        [A.TOOL_NAME]: call.tool,
        ...(errorType === undefined ? {} : { [A.ERROR_TYPE]: errorType }),
      };
      this.attemptAttributes.set(key, attributes);
    }
    this.attemptDuration.record(Math.max(0, at - call.attemptStartedAt) / 1_000, attributes);
    call.attemptStartedAt = undefined;
  }

  private ended(outcome: ToolOutcome, at: number): void {
    // The last attempt ends with the call (a failed one was recorded by `attempt.failed`).
    this.attemptEnded(outcome.callId, at, outcome.success ? undefined : outcome.errorType);
    this.running.delete(outcome.callId);
    const errorType = outcome.success ? undefined : outcome.errorType;
    this.calls.add(1, `${outcome.tool}\u0000${errorType ?? ''}`, () => ({
      [A.OPERATION_NAME]: EXECUTE_TOOL_OPERATION,
      [A.TOOL_NAME]: outcome.tool,
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
