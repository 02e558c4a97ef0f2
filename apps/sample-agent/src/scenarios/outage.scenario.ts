import type { ScriptedGoal } from '../agent/scripted-model.js';
import { WebUpstream } from '../tools/web/web-upstream.js';
import { ATTEMPT_COMPLETION, type Scenario } from './scenario.js';

const TOPICS = ['payments', 'card networks'] as const;

/** How many of the news service's next answers are 503s: every attempt of the first searches. */
const FAILED_REQUESTS = TOPICS.length * 3;

function newsGoal(topic: string): ScriptedGoal {
  const search = { name: 'news_search', arguments: { query: `${topic} outage` } };
  return {
    need: `news about the ${topic} outage`,
    approaches: [
      search,
      // The breaker is open now: this fails fast, with when to try again.
      { name: 'news_search', arguments: { query: `${topic} outage today` } },
      // The model waits as the failure said, then tries again: the breaker's trial call.
      [{ name: 'wait', arguments: { seconds: 2 } }, search],
    ],
    report: (output) =>
      `${(output as { results: unknown[] }).results.length} articles on ${topic}.`,
  };
}

/**
 * An outage the breaker sees: the news service answers 503 to every attempt of two
 * parallel searches, so `news_search`'s breaker opens; the next searches fail fast with
 * `circuit_open` and when to try again; the model decides to wait, the breaker lets trial
 * calls through (half-open), the service is back, and the breaker closes.
 */
export const outageScenario: Scenario = {
  name: 'outage',
  title: 'Outage: the breaker opens, calls fail fast, the model waits, the breaker closes',
  task: 'Find the latest news about the payments and card networks outages.',
  recoverable: true,
  script: { ...ATTEMPT_COMPLETION, goals: TOPICS.map(newsGoal) },
  prepare: async (get, runId) => {
    const upstream = await get(WebUpstream).fixture();
    upstream.plan(
      'search',
      { next: Array.from({ length: FAILED_REQUESTS }, () => ({ kind: 'unavailable' as const })) },
      runId,
    );
  },
};
