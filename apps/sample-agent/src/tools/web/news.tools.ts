import { Injectable } from '@nestjs/common';
import { Retryable, Tool, ToolArgs, ToolCall, type ToolCallContext } from '@toolshield/nest';
import { IsString, Length } from 'class-validator';
import type { SearchResults } from '../../upstream/upstream-content.js';
import { breakerKeyPerRun, runHeaders } from '../run-scope.js';
import { getJson } from './get-json.js';
import { WebUpstream } from './web-upstream.js';

/** Arguments of `news_search`. */
export class NewsSearchArgs {
  @IsString() @Length(1, 200) query!: string;
}

/**
 * The news service's breaker: opens once 2 calls in 10 s failed (more than half of them),
 * and lets 2 trial calls through 1.5 s later; the demo's outage opens and closes it. Each live
 * run has its own (keyed by its lane): the outage is staged for one run, so it opens that
 * run's breaker and no other's.
 */
export const NEWS_BREAKER = {
  key: breakerKeyPerRun,
  volumeThreshold: 2,
  errorThresholdPercentage: 50,
  rollingWindowMs: 10_000,
  resetTimeoutMs: 1_500,
  halfOpenMaxCalls: 2,
} as const;

/**
 * News search over the fixture upstream (its `/search` route), behind a circuit breaker that
 * trips quickly: during an outage the breaker opens and later calls fail fast with
 * `circuit_open` and when to try again, instead of waiting on a dead service.
 */
@Injectable()
export class NewsTools {
  constructor(private readonly upstream: WebUpstream) {}

  @Tool({
    name: 'news_search',
    description: 'Searches recent news articles; returns titles, URLs and snippets.',
    idempotent: true,
    timeoutMs: 1_000,
    breaker: NEWS_BREAKER,
    annotations: { readOnlyHint: true, openWorldHint: true },
  })
  @Retryable({ maxRetries: 2, backoff: { baseMs: 100, capMs: 200 } })
  async newsSearch(
    @ToolArgs() args: NewsSearchArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<SearchResults> {
    const { url } = await this.upstream.fixture();
    return (await getJson(`${url}/search?q=${encodeURIComponent(args.query)}`, call.signal, {
      headers: runHeaders(call),
    })) as SearchResults;
  }
}
