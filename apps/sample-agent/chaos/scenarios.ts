import {
  failFirst,
  fetchFailed,
  hang,
  latency,
  malformedOutput,
  networkError,
  rateLimit,
  thrownValue,
  upstreamError,
  type ChaosScenario,
  type ChaosScenarioCall,
} from '@toolshield/chaos';

const CITIES = ['Paris', 'Oslo', 'Lima', 'Tokyo'] as const;

/** `get_weather` for the sample app's known cities, in turn. */
const weather: ChaosScenarioCall = {
  tool: 'get_weather',
  argumentsFor: (index) => ({ city: CITIES[index % CITIES.length] }),
};

/** The faults the chaos package can inject, one scenario each, against the sample agent's tools. */
export const scenarios: ChaosScenario[] = [
  {
    name: 'rate limited, Retry-After 30 s',
    rules: [{ fault: rateLimit({ retryAfterSeconds: 30 }), probability: 0.3 }],
    calls: [weather],
  },
  {
    name: 'rate limited, Retry-After as an HTTP date',
    rules: [
      {
        fault: rateLimit({ retryAfterSeconds: 5, retryAfterFormat: 'http-date', shape: 'fetch' }),
        everyNth: 3,
      },
    ],
    calls: [weather],
  },
  {
    name: 'connections reset',
    rules: [{ fault: networkError('ECONNRESET'), probability: 0.3 }],
    calls: [weather],
  },
  {
    name: 'DNS failures and fetch failed',
    rules: [
      { name: 'dns', fault: networkError('ENOTFOUND'), everyNth: 4 },
      { name: 'fetch', fault: fetchFailed('ECONNREFUSED'), probability: 0.15 },
    ],
    calls: [weather],
  },
  {
    name: 'upstream 503 outage opens the breaker',
    description: 'Every call fails for the first minute; the breaker must open and fail fast.',
    rules: [{ fault: upstreamError({ status: 503 }), activeUntil: 60_000 }],
    calls: [weather],
    concurrency: 4,
  },
  {
    name: 'hung upstream ends at the attempt timeout',
    rules: [{ fault: hang(), probability: 0.2 }],
    calls: [weather],
  },
  {
    name: 'heavy-tailed latency',
    rules: [{ fault: latency({ kind: 'log-normal', medianMs: 300, sigma: 1.2, capMs: 45_000 }) }],
    calls: [weather],
  },
  {
    name: 'thrown non-Errors',
    rules: [
      { name: 'string', fault: thrownValue('string'), probability: 0.1 },
      { name: 'circular', fault: thrownValue('circular'), probability: 0.1 },
    ],
    calls: [weather],
  },
  {
    name: 'malformed output',
    rules: [{ fault: malformedOutput({ kind: 'bigint' }), probability: 0.2 }],
    calls: [weather],
  },
  {
    name: 'every call fails its first two attempts, retry budget off: the third succeeds and the breaker stays closed',
    rules: [{ fault: failFirst(2, { per: 'attempt' }) }],
    calls: [weather],
    execute: { retry: { retryBudget: false } },
  },
  {
    name: 'every call fails its first two attempts (an upstream failing most requests): the retry budget withholds most retries',
    rules: [{ fault: failFirst(2, { per: 'attempt' }) }],
    calls: [weather],
  },
  {
    name: 'everything at once',
    rules: [
      {
        name: 'slow',
        fault: latency({ kind: 'uniform', minMs: 0, maxMs: 1_000 }),
        probability: 0.3,
      },
      { name: 'limited', fault: rateLimit({ retryAfterSeconds: 30 }), probability: 0.1 },
      { name: 'reset', fault: networkError('ECONNRESET'), everyNth: 7 },
    ],
    calls: [weather],
  },
  {
    name: 'bad arguments and unknown tools',
    rules: [{ fault: networkError('ECONNRESET'), probability: 0.2 }],
    calls: [
      weather,
      { tool: 'get_weather', arguments: '{"city": "Par' },
      { tool: 'get_weather', arguments: { city: 7 } },
      { tool: 'get_wether', arguments: { city: 'Oslo' } },
      { tool: 'get_weather', arguments: { city: 'Atlantis' } },
    ],
  },
];
