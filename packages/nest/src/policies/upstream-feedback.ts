import { Inject, Injectable } from '@nestjs/common';
import { type Clock, type HeadersLike } from '@toolshield/core';
import {
  readUpstreamRateSignals,
  readUpstreamRefusal,
  type RateLimiter,
} from '@toolshield/core/internal';
import { ToolErrorClassifier } from '../execution/tool-error-classifier.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/**
 * Tells a tool's adaptive rate limit what the upstream answered one request, when it answers:
 * a success with the rate-limit headers the attempt passed on, or a refusal (429, or 503 with
 * `Retry-After`). The rate-limit layer reports each attempt of a tool without hedging; the
 * hedging layer reports each of its attempts (the first and the hedge, winner or loser), so
 * every request's answer reaches the controller exactly once.
 *
 * @internal
 */
@Injectable()
export class UpstreamFeedback {
  constructor(
    private readonly classifier: ToolErrorClassifier,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `attempt` (sent now) as it ends, once the adaptive `limiter` has heard how; `headers` reads
   * what it passed on. Either answer says when its request was sent: a refusal of one sent
   * before the controller's last slow-down is an echo of it.
   */
  report<T>(
    limiter: RateLimiter,
    attempt: Promise<T>,
    headers: () => HeadersLike | undefined,
  ): Promise<T> {
    const sentAt = this.clock.now();
    return attempt.then(
      (value) => {
        const passedOn = headers();
        limiter.admitted(
          passedOn === undefined ? undefined : readUpstreamRateSignals(passedOn, this.clock.now()),
          sentAt,
        );
        return value;
      },
      (error: unknown) => {
        const now = this.clock.now();
        const signals = readUpstreamRefusal(error, this.classifier.classify(error), now);
        if (signals) limiter.refused(signals, sentAt);
        throw error;
      },
    );
  }
}
