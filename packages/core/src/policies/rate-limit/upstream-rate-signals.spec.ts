import { describe, expect, it } from '@jest/globals';
import { readUpstreamRateSignals } from './upstream-rate-signals.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('readUpstreamRateSignals', () => {
  it.each([
    [
      'IETF structured fields',
      {
        'RateLimit-Policy': '"default";q=100;w=60, "daily";q=1000;w=86400',
        RateLimit: '"default";r=40;t=30',
      },
      { limit: 100, windowMs: 60_000, remaining: 40, resetMs: 30_000 },
    ],
    [
      'earlier IETF draft',
      { RateLimit: 'limit=100, remaining=0, reset=5' },
      { limit: 100, remaining: 0, resetMs: 5_000 },
    ],
    [
      'RateLimit-* triplet',
      { 'ratelimit-limit': '10', 'ratelimit-remaining': '3', 'ratelimit-reset': '2' },
      { limit: 10, remaining: 3, resetMs: 2_000 },
    ],
    [
      'X-RateLimit-* with a Unix reset time',
      {
        'X-RateLimit-Limit': '5000',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(NOW / 1000 + 90),
      },
      { limit: 5000, remaining: 0, resetMs: 90_000 },
    ],
    [
      'Retry-After in whole seconds',
      new Headers({ 'Retry-After': '3' }),
      { retryAfterMs: 3_000, retryAfterInWholeSeconds: true },
    ],
    [
      'Retry-After with the precise retry-after-ms',
      { 'Retry-After': '1', 'retry-after-ms': '20' },
      { retryAfterMs: 20 },
    ],
    ['Retry-After in fractional seconds', { 'Retry-After': '0.25' }, { retryAfterMs: 250 }],
    ['nothing useful', { 'X-RateLimit-Limit': 'lots', RateLimit: 'garbage' }, {}],
  ])('%s', (_name, headers, expected) => {
    expect(readUpstreamRateSignals(headers, NOW)).toEqual(expected);
  });

  it('reads nothing from no headers', () => {
    expect(readUpstreamRateSignals(undefined, NOW)).toEqual({});
  });
});
