import { SetMetadata } from '@nestjs/common';
import type { RetryOptions } from '@toolshield/core';
import { RETRYABLE_METADATA } from '../toolshield.constants.js';

/**
 * Lets toolshield retry the tool on retryable failures (timeouts, rate limits, network
 * errors, upstream 5xx, a full bulkhead), with exponential backoff and jitter, `Retry-After`
 * honoured up to a cap, and an optional total budget. Without it, only tools marked
 * `idempotent` are retried (with the module's default retry options); all others run once.
 *
 * @example
 * ```ts
 * @Tool({ name: 'search', description: 'Searches the catalogue.' })
 * @Retryable({ maxRetries: 3, backoff: { baseMs: 200, capMs: 2_000 }, budgetMs: 10_000 })
 * search(@ToolArgs() args: SearchArgs) {}
 * ```
 * @publicApi
 */
export const Retryable = (options: RetryOptions = {}): MethodDecorator =>
  SetMetadata(RETRYABLE_METADATA, options);
