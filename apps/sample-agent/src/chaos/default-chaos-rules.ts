import type { ChaosRuleSpec } from './chaos-rule-spec.js';

/**
 * The app's chaos when switched on (`CHAOS=on`, `PUT /api/chaos`, the demo): transient faults
 * on the read-only, retried tools only, so every scenario still ends the way it should, through
 * more retries. Writes (`create_namespace`, `deploy`) are never hit: they are not retried.
 */
export const DEFAULT_CHAOS_RULES: readonly ChaosRuleSpec[] = [
  {
    name: 'search-rate-limited',
    tools: ['web_search'],
    fault: { kind: 'rate_limit', retryAfterSeconds: 0 },
    probability: 0.3,
  },
  {
    name: 'reads-reset',
    tools: ['fetch_page', 'list_pods', 'get_weather', 'calculate'],
    fault: { kind: 'network_error', code: 'ECONNRESET' },
    probability: 0.2,
  },
  {
    name: 'reads-slow',
    tools: ['get_weather', 'list_pods'],
    fault: { kind: 'latency', ms: 150 },
    probability: 0.3,
  },
];

/** The seed of the app's chaos, so a run can be replayed. */
export const DEFAULT_CHAOS_SEED = 7;
