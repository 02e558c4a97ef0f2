import { Injectable } from '@nestjs/common';
import { Retryable, Tool } from '../../src/index.js';

/**
 * A tool that throws what the spec hands it, through the retry layer (so `attempt.failed` and
 * `retry.scheduled` events are produced too).
 */
@Injectable()
export class LeakyTools {
  next: () => unknown = () => undefined;

  @Tool({
    idempotent: true,
    name: 'leaky',
    description: 'Throws what the test tells it to.',
    breaker: false,
  })
  @Retryable({ maxRetries: 1, backoff: { baseMs: 1, capMs: 1 } })
  leaky(): Promise<unknown> {
    return Promise.reject(this.next());
  }
}
