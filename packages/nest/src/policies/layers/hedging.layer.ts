import { Inject, Injectable } from '@nestjs/common';
import { type Clock } from '@toolshield/core';
import { Hedger, type RateLimiter } from '@toolshield/core/internal';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { ToolEventBus } from '../../execution/tool-event-bus.js';
import { TOOLSHIELD_CLOCK } from '../../toolshield.constants.js';
import { HedgedAttemptCall } from '../hedging/hedged-attempt-call.js';
import type { ToolHedgingPolicy } from '../tool-policies.interface.js';
import { ToolRateLimiters } from '../tool-rate-limiters.service.js';
import { UpstreamFeedback } from '../upstream-feedback.js';
import type { InnerRun } from './tool-policy-layer.js';

/** What `metadata.hedge` of a hedged call's result says. @publicApi */
export interface HedgeMetadata {
  /** How long the first attempt had run when the second started. */
  readonly afterMs: number;
  /** Whether the second attempt gave the result (the first was aborted). */
  readonly won: boolean;
}

/**
 * Hedges each attempt of a tool with `hedging` (idempotent and read-only tools only): when the
 * attempt is still running after the delay (fixed, or a percentile of the tool's recent
 * calls) and the extra-attempt budget allows, a second one starts; the first to succeed is
 * the attempt's result and the other's signal is aborted. It wraps the innermost part of the
 * pipeline, so the retry, rate limit, breaker and timeout around it see one attempt: one
 * outcome for the breaker, one time limit for both. Each runs the method (and the
 * interceptors closest to it) with its own `ToolCallContext`. A hedge takes a turn at the
 * tool's rate limit only if one is free now, and is skipped otherwise; an adaptive rate
 * limit hears each attempt's answer (a hedge's 429 too) when it comes. Reports `hedge.sent`
 * and `hedge.won`; the result says `metadata.hedge` when a hedge was sent.
 *
 * @internal
 */
@Injectable()
export class HedgingLayer {
  /** One hedger per tool: its own recent latencies and budget. */
  private readonly hedgers = new WeakMap<ToolHedgingPolicy, Hedger>();

  constructor(
    private readonly events: ToolEventBus,
    private readonly limiters: ToolRateLimiters,
    private readonly feedback: UpstreamFeedback,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
  ) {}

  /** Runs one attempt of the call, hedged (the innermost link of the tool's policy chain). */
  readonly run = (
    attempt: InnerRun,
    call: MutableToolCallContext,
    state: ToolCallState,
  ): Promise<unknown> => {
    const policy = state.policies.hedging;
    if (!policy) return attempt(call, state);
    const adaptive = this.adaptiveRateOf(state);
    let afterMs: number | undefined;
    const base = { callId: call.callId, tool: call.toolName, attempt: call.attempt };
    return this.hedgerOf(policy).runWithAbortSources(
      (source) => {
        const own = new HedgedAttemptCall(call, source);
        const run = attempt(own, state);
        return adaptive ? this.feedback.report(adaptive, run, () => own.upstreamHeaders) : run;
      },
      {
        // The attempt's cancellation inside the timeout layer, without making an AbortSignal.
        signal: state.signal,
        mayHedge: () => this.hasRateLimitTurn(state),
        onHedge: (delayMs) => {
          afterMs = delayMs;
          this.events.emit({ ...base, type: 'hedge.sent', at: this.clock.now(), delayMs });
        },
        onWinner: (hedge) => {
          if (hedge) this.events.emit({ ...base, type: 'hedge.won', at: this.clock.now() });
          const marker: HedgeMetadata | undefined =
            afterMs === undefined ? undefined : { afterMs, won: hedge };
          state.resultMetadata = marker && { hedge: marker };
        },
      },
    );
  };

  private hedgerOf(policy: ToolHedgingPolicy): Hedger {
    let hedger = this.hedgers.get(policy);
    if (!hedger) {
      hedger = new Hedger(policy.options, this.clock);
      this.hedgers.set(policy, hedger);
    }
    return hedger;
  }

  /** The tool's adaptive rate limiter, which hears every attempt's answer. */
  private adaptiveRateOf(state: ToolCallState): RateLimiter | undefined {
    const rateLimit = state.policies.rateLimit;
    const limiter = rateLimit && this.limiters.acquire(rateLimit.key, rateLimit.options).limiter;
    return limiter?.adaptive ? limiter : undefined;
  }

  /** A hedge is one more request upstream: it goes only on a turn the rate limit has free. */
  private hasRateLimitTurn(state: ToolCallState): boolean {
    const rateLimit = state.policies.rateLimit;
    return (
      !rateLimit || this.limiters.acquire(rateLimit.key, rateLimit.options).limiter.tryAcquire()
    );
  }
}
