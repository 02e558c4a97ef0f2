import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { isChaosInjected } from '../marking/chaos-marker.js';
import type { ChaosHttpError } from './http-error.js';
import { rateLimit } from './rate-limit.fault.js';
import { upstreamError } from './upstream-error.fault.js';

describe('rateLimit', () => {
  it('rejects with an axios-shaped 429 carrying Retry-After in seconds, without calling the tool', async () => {
    const run = runFault(rateLimit({ retryAfterSeconds: 30 }));
    const error = (await rejectionOf(run.promise)) as ChaosHttpError;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ChaosHttpError',
      message: 'Request failed with status code 429',
      status: 429,
      statusCode: 429,
      isAxiosError: true,
      code: 'ERR_BAD_REQUEST',
      headers: { 'retry-after': '30' },
      response: { status: 429, statusText: 'Too Many Requests', headers: { 'retry-after': '30' } },
      metadata: { chaos: true, chaosFault: 'http:429', chaosRule: 'under-test' },
    });
    expect(isChaosInjected(error)).toBe(true);
    expect(run.toolCalls()).toBe(0);
  });

  it('can say Retry-After as an HTTP date (rounded up) and add retry-after-ms', async () => {
    const clock = new VirtualClock({ startMs: Date.UTC(2026, 10, 22, 12, 0, 0, 400) });
    const run = runFault(
      rateLimit({ retryAfterSeconds: 2, retryAfterFormat: 'http-date', retryAfterMsHeader: true }),
      { clock },
    );
    const error = (await rejectionOf(run.promise)) as ChaosHttpError;
    expect(error.headers).toEqual({
      'retry-after': 'Sun, 22 Nov 2026 12:00:03 GMT',
      'retry-after-ms': '2000',
    });
    expect(Date.parse(error.headers['retry-after'] as string) - clock.now()).toBeGreaterThanOrEqual(
      2000,
    );
  });

  it('imitates a fetch wrapper with a real Response', async () => {
    const error = (await rejectionOf(
      runFault(rateLimit({ shape: 'fetch' })).promise,
    )) as ChaosHttpError;
    expect(error.response).toBeInstanceOf(Response);
    expect(error.response.status).toBe(429);
    expect((error.response.headers as Headers).get('Retry-After')).toBe('1');
    expect(error.isAxiosError).toBeUndefined();
    expect(error.message).toMatch(/^Request failed with status code 429 Too Many Requests/);
  });

  it('can leave Retry-After out, and refuses fractional seconds up front', async () => {
    const error = (await rejectionOf(
      runFault(rateLimit({ retryAfterSeconds: null })).promise,
    )) as ChaosHttpError;
    expect(error.headers).toEqual({});
    expect(() => rateLimit({ retryAfterSeconds: 1.5 })).toThrow(RangeError);
  });
});

describe('upstreamError', () => {
  it.each([500, 502, 503, 504] as const)(
    'rejects with an HTTP %i error response',
    async (status) => {
      const run = runFault(upstreamError({ status }));
      const error = (await rejectionOf(run.promise)) as ChaosHttpError;
      expect(error).toMatchObject({
        status,
        code: 'ERR_BAD_RESPONSE',
        response: { status },
        headers: {},
        metadata: { chaos: true, chaosFault: `http:${status}` },
      });
      expect(run.toolCalls()).toBe(0);
    },
  );

  it('defaults to 503 and can carry Retry-After', async () => {
    const error = (await rejectionOf(
      runFault(upstreamError({ retryAfterSeconds: 5 })).promise,
    )) as ChaosHttpError;
    expect(error.status).toBe(503);
    expect(error.response.statusText).toBe('Service Unavailable');
    expect(error.headers).toEqual({ 'retry-after': '5' });
  });
});
