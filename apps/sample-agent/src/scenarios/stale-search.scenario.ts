import type { NotedOutput } from '@toolshield/core';
import type { Page, SearchResults } from '../upstream/upstream-content.js';
import { WebUpstream } from '../tools/web/web-upstream.js';
import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

const QUERY = 'rate limiting';
const LONG_PAGE = 'https://docs.example/rate-limiting/long';

/** The output a note came with (a cut or stale answer), or the output itself. */
function unwrap<T>(output: unknown): { readonly value: T; readonly note?: string } {
  const noted = output as Partial<NotedOutput> | null;
  return typeof noted?.note === 'string' && 'output' in noted
    ? { value: noted.output as T, note: noted.note }
    : { value: output as T };
}

/**
 * Huge outputs and an outage the cache rides out: the search answers, a 250 KB page is cut to
 * the tool's budget (the model reads valid JSON and a note saying what was left out), then the
 * search upstream goes down: after its retries, the search is answered from the cache, marked
 * stale with its age, instead of failing.
 */
export const staleSearchScenario: Scenario = {
  name: 'stale-search',
  title: 'Huge page cut to its budget; during an outage, a stale search answer, marked',
  task: `Search the web for "${QUERY}", read the long guide, then search again for anything new.`,
  recoverable: true,
  script: {
    ...ATTEMPT_COMPLETION,
    goals: [
      {
        need: 'search results',
        approaches: [{ name: 'web_search', arguments: { query: QUERY } }],
        report: (output) =>
          `Found ${unwrap<SearchResults>(output).value.results.length} results for "${QUERY}".`,
      },
      {
        need: 'the long guide',
        approaches: [{ name: 'fetch_page', arguments: { url: LONG_PAGE } }],
        report: (output) => {
          const { value, note } = unwrap<Page>(output);
          return `Read "${value.title}"${note ? ', cut to fit its output budget' : ''}.`;
        },
      },
      {
        need: 'fresher search results',
        // The cached answer is no longer fresh after the wait: the search goes to the upstream.
        approaches: [
          [
            { name: 'wait', arguments: { seconds: 3 } },
            { name: 'web_search', arguments: { query: QUERY } },
          ],
        ],
        report: (output) => {
          const { value, note } = unwrap<SearchResults>(output);
          return note
            ? `The search service is down; the last answer (${value.results.length} results) came from the cache: ${note}`
            : `Found ${value.results.length} results again.`;
        },
      },
    ],
  },
  prepare: async (get, runId) => {
    const upstream = await get(WebUpstream).fixture();
    upstream.plan('search', { next: [{ kind: 'ok' }], then: { kind: 'unavailable' } }, runId);
  },
};
