import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '../../clock/virtual-clock.js';
import type { UpstreamModelOptions } from '../../../test/support/limited-upstream-model.js';
import {
  runLimitChange,
  settleSeconds,
  type LimitChangeResult,
} from '../../../test/support/simulated-upstream.js';

/**
 * The adaptive limiter as the README recommends for an unknown limit (`{ rate: 10, adaptive:
 * true }`), against the kinds of upstream of `bench:upstream`, 20 callers that retry refusals
 * after their `Retry-After` (1 s without one), in virtual time: deterministic, so the figures
 * are exact. The goals (issue 35): header rows within 1.15x the ideal time with at most 2 %
 * refused; a raised limit found within 4 s, a fallen one within 2 s.
 */
describe('the default rate controller against the kinds of upstream (virtual time)', () => {
  const share = ({ accepted, refused }: LimitChangeResult) => refused / (accepted + refused);
  const steady = (upstream: UpstreamModelOptions) =>
    runLimitChange(new VirtualClock({ startMs: 0 }), {
      phases: [50],
      phaseMs: 60_000,
      callers: 20,
      startRate: 10,
      calls: 1_000,
      upstream,
    });

  // Measured: 1.00x 0 %, 1.00x 0 %, 1.05x 0.5 % (slow start from 10 costs the 5 %).
  it.each<[string, UpstreamModelOptions]>([
    [
      'a token bucket (burst 10) with IETF RateLimit headers',
      { counting: 'token-bucket', headers: 'ietf', burst: 10 },
    ],
    ['a fixed window with IETF RateLimit headers', { counting: 'fixed-window', headers: 'ietf' }],
    [
      'a token bucket (burst 10) sending X-RateLimit-*',
      { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
    ],
  ])('%s: within 1.15x the ideal time, at most 2 %% refused', async (_name, upstream) => {
    const result = await steady(upstream);
    expect(result.elapsedMs).toBeLessThanOrEqual(1.15 * 20_000);
    expect(share(result)).toBeLessThanOrEqual(0.02);
  });

  // Measured: 1.12x 1.7 %, 1.10x 2.3 %, 1.05x 1.4 % (the AWS SDK over HTTP: 1.24x 2.4 %, 2.24x 4.8 %, 1.44x 2.6 %).
  it.each<[string, UpstreamModelOptions]>([
    [
      'a sliding log saying a whole-second Retry-After',
      { counting: 'sliding-log', headers: 'retry-after-seconds' },
    ],
    ['a fixed window saying nothing at all', { counting: 'fixed-window', headers: 'none' }],
    [
      'a token bucket (burst 5) saying a precise retry-after-ms',
      { counting: 'token-bucket', headers: 'retry-after-ms', burst: 5 },
    ],
  ])('%s: within 1.15x the ideal time, at most 2.5 %% refused', async (_name, upstream) => {
    const result = await steady(upstream);
    expect(result.elapsedMs).toBeLessThanOrEqual(1.15 * 20_000);
    expect(share(result)).toBeLessThanOrEqual(0.025);
  });

  // Measured (fall, rise): 2 s 2 s, 1 s 3 s, 1 s 3 s, 0 s 3 s.
  it.each<[string, UpstreamModelOptions]>([
    [
      'a sliding log saying a whole-second Retry-After',
      { counting: 'sliding-log', headers: 'retry-after-seconds' },
    ],
    [
      'a token bucket saying a precise retry-after-ms',
      { counting: 'token-bucket', headers: 'retry-after-ms', burst: 5 },
    ],
    [
      'a token bucket sending X-RateLimit-*',
      { counting: 'token-bucket', headers: 'x-ratelimit', burst: 10 },
    ],
    ['a fixed window saying nothing', { counting: 'fixed-window', headers: 'none' }],
  ])(
    '%s, its limit 50 → 20 → 80 every 10 s: the fall followed within 2 s, the rise within 4 s',
    async (_name, upstream) => {
      const run = { phases: [50, 20, 80], phaseMs: 10_000, callers: 20, startRate: 10, upstream };
      const result = await runLimitChange(new VirtualClock({ startMs: 0 }), run);
      expect(settleSeconds(result, run, 1) ?? Infinity).toBeLessThanOrEqual(2);
      expect(settleSeconds(result, run, 2) ?? Infinity).toBeLessThanOrEqual(4);
      expect(share(result)).toBeLessThanOrEqual(0.03);
    },
  );
});
