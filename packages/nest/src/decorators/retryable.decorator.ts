import { SetMetadata } from '@nestjs/common';
import type { RetryOptions } from '@toolshield/core';
import { RETRYABLE_METADATA } from '../toolshield.constants.js';

/**
 * How toolshield retries an idempotent tool on retryable failures (timeouts, rate limits,
 * network errors, upstream 5xx, a full bulkhead): exponential backoff and jitter,
 * `Retry-After` honoured up to a cap, an optional total budget. A tool is retried because it
 * says `idempotent: true` in `@Tool()` (with the module's default retry options unless it has
 * `@Retryable()`); `@Retryable()` on a tool that does not say so stops startup, since a
 * retried call runs more than once. Tools that are not idempotent run once.
 *
 * @example
 * ```ts
 * @Tool({ name: 'search', description: 'Searches the catalogue.', idempotent: true })
 * @Retryable({ maxRetries: 3, backoff: { baseMs: 200, capMs: 2_000 }, budgetMs: 10_000 })
 * search(@ToolArgs() args: SearchArgs) {}
 * ```
 * @publicApi
 */
export const Retryable = (options: RetryOptions = {}): MethodDecorator =>
  SetMetadata(RETRYABLE_METADATA, options);
