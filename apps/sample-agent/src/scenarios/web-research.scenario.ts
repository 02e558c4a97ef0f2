import { WebUpstream } from '../tools/web/web-upstream.js';
import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

const QUERY = 'circuit breaker Retry-After';
const PAGE = 'https://docs.example/circuit-breaker-retry-after/1';

/**
 * Research over the fixture upstream: the search is rate limited once (429, `Retry-After: 1`),
 * the page fetch is reset mid-response and then meets an HTML error page before it succeeds.
 */
export const webResearchScenario: Scenario = {
  name: 'web-research',
  title: 'Web research: 429 with Retry-After, a reset connection, an HTML error page',
  task: `Search the web for "${QUERY}" and summarise the first result.`,
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'search results',
        approaches: [{ name: 'web_search', arguments: { query: QUERY } }],
        report: (output) =>
          `Found ${(output as { results: unknown[] }).results.length} results for "${QUERY}".`,
      },
      {
        need: 'the first result',
        approaches: [{ name: 'fetch_page', arguments: { url: PAGE } }],
        report: (output) => `The first result says: ${(output as { text: string }).text}`,
      },
    ],
  },
  prepare: async (get, runId) => {
    const upstream = await get(WebUpstream).fixture();
    upstream.plan('search', { next: [{ kind: 'rate_limited', retryAfterSeconds: 1 }] }, runId);
    upstream.plan('page', { next: [{ kind: 'reset' }, { kind: 'html_error' }] }, runId);
  },
};

/** The upstream at its worst: slow answers time out, 503s, then it recovers. */
export const slowWebScenario: Scenario = {
  name: 'slow-web',
  title: 'Slow upstream: an attempt times out, 503s, then success',
  task: 'Search the web for "bulkheads" and fetch the first result.',
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'search results',
        approaches: [{ name: 'web_search', arguments: { query: 'bulkheads' } }],
        report: (output) => `Found ${(output as { results: unknown[] }).results.length} results.`,
      },
      {
        need: 'the first result',
        approaches: [
          { name: 'fetch_page', arguments: { url: 'https://docs.example/bulkheads/1' } },
        ],
        report: (output) => `The first result is "${(output as { title: string }).title}".`,
      },
    ],
  },
  prepare: async (get, runId) => {
    const upstream = await get(WebUpstream).fixture();
    upstream.plan('search', { next: [{ kind: 'slow', delayMs: 2_000 }] }, runId);
    upstream.plan('page', { next: [{ kind: 'unavailable' }, { kind: 'unavailable' }] }, runId);
  },
};

/** How long the upstream takes per search in {@link searchesScenario}, like a real API. */
export const SEARCH_LATENCY_MS = 100;

/**
 * Many calls in one turn over real sockets (the benchmark's load): `count` searches, each
 * answered after {@link SEARCH_LATENCY_MS}.
 */
export function searchesScenario(count: number): Scenario {
  return {
    name: `searches-${count}`,
    title: `${count} web searches in one turn`,
    task: `Search the web for topics 1 to ${count}.`,
    recoverable: true,
    script: {
      ...ATTEMPT_COMPLETION,
      goals: Array.from({ length: count }, (_, index) => ({
        need: `topic ${index + 1}`,
        approaches: [{ name: 'web_search', arguments: { query: `topic ${index + 1}` } }],
        report: (output: unknown) => `${(output as { results: unknown[] }).results.length}`,
      })),
    },
    prepare: async (get, runId) => {
      const upstream = await get(WebUpstream).fixture();
      upstream.plan('search', { then: { kind: 'slow', delayMs: SEARCH_LATENCY_MS } }, runId);
    },
  };
}
