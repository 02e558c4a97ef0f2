import { Injectable } from '@nestjs/common';
import {
  Retryable,
  Tool,
  ToolArgs,
  ToolCall,
  type ToolOptions,
  type ToolCallContext,
} from '@toolshield/nest';
import { IsString, IsUrl, Length } from 'class-validator';
import type { Page, SearchResults } from '../../upstream/upstream-content.js';
import { runIdOf, runHeaders } from '../run-scope.js';
import { getJson } from './get-json.js';
import { WebUpstream } from './web-upstream.js';

/** Arguments of `web_search`. */
export class WebSearchArgs {
  @IsString() @Length(1, 200) query!: string;
}

/** Arguments of `fetch_page`. */
export class FetchPageArgs {
  @IsUrl({ require_tld: false }) url!: string;
}

/** Per-attempt limit: a slow upstream answer (2 s by default) times out and is retried. */
export const WEB_TIMEOUT_MS = 1_000;

/**
 * Answers reused for 2 s within a run (identical calls of one batch share one request), and
 * for 10 min more as a stale answer, marked with its age, when the upstream fails. Per run:
 * the fixture upstream answers each run by its own plan. Short so the stale-search scenario
 * shows a stale answer within seconds; a real service would keep search answers a minute or more.
 */
export const WEB_CACHE = { ttlMs: 2_000, staleIfErrorMs: 600_000, scope: runIdOf } as const;

/** What the model reads of a result or page at most: longer ones are cut, with a note. */
export const WEB_OUTPUT = { maxTokens: 2_000 } as const;

/** The options both web tools share: read-only, idempotent (so retried), a short timeout. */
function webTool(name: string, description: string): ToolOptions {
  return {
    name,
    description,
    idempotent: true,
    timeoutMs: WEB_TIMEOUT_MS,
    annotations: { readOnlyHint: true, openWorldHint: true },
    cache: WEB_CACHE,
    output: WEB_OUTPUT,
  };
}

/** Up to 5 retries, quick backoff, and a server's Retry-After honoured up to 5 s. */
const WEB_RETRY = {
  maxRetries: 5,
  backoff: { baseMs: 100, capMs: 500 },
  maxRetryAfterMs: 5_000,
  // Staged plans fail most attempts: with the default budget, 300 runs from 30 clients, 8/34 web-research ended as documented, then 0/34.
  retryBudget: false,
} as const;

/**
 * Web search and page fetching over real HTTP, against the fixture upstream: real `fetch`,
 * the attempt's `signal`, and `response.ok` checked, so 429s, 503s, resets, HTML error pages
 * and slow answers reach toolshield as what they are.
 */
@Injectable()
export class WebTools {
  constructor(private readonly upstream: WebUpstream) {}

  @Tool(webTool('web_search', 'Searches the web; returns titles, URLs and snippets.'))
  @Retryable(WEB_RETRY)
  async webSearch(
    @ToolArgs() args: WebSearchArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<SearchResults> {
    return (await this.get(`/search?q=${encodeURIComponent(args.query)}`, call)) as SearchResults;
  }

  @Tool(webTool('fetch_page', 'Fetches a web page by URL and returns its title and text.'))
  @Retryable(WEB_RETRY)
  async fetchPage(
    @ToolArgs() args: FetchPageArgs,
    @ToolCall() call: ToolCallContext,
  ): Promise<Page> {
    return (await this.get(`/page?url=${encodeURIComponent(args.url)}`, call)) as Page;
  }

  private async get(path: string, call: ToolCallContext): Promise<unknown> {
    return getJson(`${await this.upstream.url()}${path}`, call.signal, {
      headers: runHeaders(call),
    });
  }
}
