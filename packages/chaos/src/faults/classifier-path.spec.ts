import { describe, expect, it } from '@jest/globals';
import { classifyError, type ToolErrorType } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { chaosMarkOf } from '../marking/chaos-marker.js';
import type { ChaosFault } from './chaos-fault.js';
import { fetchFailed, networkError } from './network-error.fault.js';
import { rateLimit } from './rate-limit.fault.js';
import { thrownValue } from './thrown-value.fault.js';
import { upstreamError } from './upstream-error.fault.js';

/** What the core classifier makes of a fault's rejection, at a fixed virtual time. */
async function classified(fault: ChaosFault) {
  const clock = new VirtualClock({ startMs: Date.UTC(2026, 10, 22, 12) });
  const error = await rejectionOf(runFault(fault, { clock }).promise);
  return classifyError(error, { now: () => clock.now() });
}

describe('injected faults through the core classifier', () => {
  it.each<[string, ToolErrorType, ChaosFault]>([
    ['429 (axios)', 'rate_limited', rateLimit()],
    ['429 (fetch)', 'rate_limited', rateLimit({ shape: 'fetch' })],
    ['502', 'upstream_unavailable', upstreamError({ status: 502 })],
    ['503 (fetch)', 'upstream_unavailable', upstreamError({ status: 503, shape: 'fetch' })],
    ['504', 'upstream_unavailable', upstreamError({ status: 504 })],
    ['ECONNRESET', 'network', networkError('ECONNRESET')],
    ['ECONNREFUSED', 'network', networkError('ECONNREFUSED')],
    ['ENOTFOUND', 'network', networkError('ENOTFOUND')],
    ['ETIMEDOUT', 'timeout', networkError('ETIMEDOUT')],
    ['fetch failed', 'network', fetchFailed()],
    ['a thrown string', 'internal', thrownValue('string')],
    ['a circular object', 'internal', thrownValue('circular')],
  ])('%s is classified as %s', async (_label, type, fault) => {
    expect((await classified(fault)).type).toBe(type);
  });

  it('keeps the chaos marker on the classified error, through its cause', async () => {
    const error = await classified(networkError('ECONNRESET'));
    expect(chaosMarkOf(error.cause)).toEqual({ fault: 'network:ECONNRESET', rule: 'under-test' });
  });

  it('turns Retry-After, in seconds or as a date, and retry-after-ms into retryAfterMs', async () => {
    expect((await classified(rateLimit({ retryAfterSeconds: 30 }))).retryAfterMs).toBe(30_000);
    expect(
      (await classified(rateLimit({ retryAfterSeconds: 30, retryAfterFormat: 'http-date' })))
        .retryAfterMs,
    ).toBe(30_000);
    expect(
      (await classified(rateLimit({ retryAfterSeconds: 7, retryAfterMsHeader: true })))
        .retryAfterMs,
    ).toBe(7_000);
  });
});
