import { Inject, Injectable } from '@nestjs/common';
import { isToolError, type Clock } from '@toolshield/core';
import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import { ToolEventBus } from '../../execution/tool-event-bus.js';
import { TOOLSHIELD_CLOCK } from '../../toolshield.constants.js';
import { ToolRateLimiters, type ToolRateLimit } from '../tool-rate-limiters.service.js';
import { UpstreamFeedback } from '../upstream-feedback.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * Paces each attempt through the tool's rate limiter (`@Tool({ rateLimit })`): an attempt
 * goes at once when the limiter allows, waits its turn otherwise, and fails at once with
 * `rate_limited` and the wait as `retryAfterMs` when its turn would come after its deadline.
 * An adaptive limiter learns from what comes back: the upstream's refusals (429, 503 with
 * Retry-After, read from the error) and the headers a successful attempt passes on with
 * `call.reportUpstreamHeaders`. A hedged tool's attempts are reported by the hedging layer,
 * each of them (see {@link UpstreamFeedback}).
 *
 * @internal
 */
@Injectable()
export class RateLimitLayer implements ToolPolicyLayer {
  constructor(
    private readonly limiters: ToolRateLimiters,
    private readonly feedback: UpstreamFeedback,
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
  ) {}

  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown> {
    const policy = state.policies.rateLimit;
    if (!policy) return inner(call, state);
    const limit = this.limiters.acquire(policy.key, policy.options);
    if (limit.limiter.tryAcquire()) return this.attempt(inner, limit, call, state);
    const maxWaitMs = state.policies.rateLimitMaxWaitMs;
    return limit.limiter
      .acquire({
        signal: state.signal,
        deadlineMs: maxWaitMs === undefined ? undefined : this.clock.now() + maxWaitMs,
        onWait: (waitMs) =>
          this.events.emit({
            type: 'rate_limit.waiting',
            at: this.clock.now(),
            callId: call.callId,
            tool: call.toolName,
            key: policy.key,
            waitMs,
          }),
      })
      .then(
        () => this.attempt(inner, limit, call, state),
        (error: unknown) => {
          if (isToolError(error) && error.type === 'rate_limited') {
            this.events.emit({
              type: 'rate_limit.refused',
              at: this.clock.now(),
              callId: call.callId,
              tool: call.toolName,
              key: policy.key,
              retryAfterMs: error.retryAfterMs ?? 0,
            });
          }
          throw error;
        },
      );
  }

  private attempt(
    inner: InnerRun,
    limit: ToolRateLimit,
    call: MutableToolCallContext,
    state: ToolCallState,
  ): Promise<unknown> {
    const { limiter } = limit;
    if (!limiter.adaptive || state.policies.hedging) return inner(call, state);
    state.upstreamHeaders = undefined;
    return this.feedback.report(limiter, inner(call, state), () => state.upstreamHeaders);
  }
}
