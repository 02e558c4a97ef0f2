import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { NetworkError } from '../errors/network.error.js';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { UpstreamUnavailableError } from '../errors/upstream-unavailable.error.js';
import { decideRetry, decideRetryOnResult } from './retry-decision.js';
import { resolveRetryPolicy } from './retry-policy.js';

const network = () => new NetworkError('socket hang up', { metadata: { code: 'ECONNRESET' } });

describe('decideRetry', () => {
  it('retries retryable types until maxRetries retries were made', () => {
    const policy = resolveRetryPolicy({ maxRetries: 2, backoff: { jitter: 'none', baseMs: 100 } });
    expect(decideRetry(network(), { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
      retry: true,
      delayMs: 100,
    });
    expect(decideRetry(network(), { attempt: 2, elapsedMs: 0 }, policy)).toEqual({
      retry: true,
      delayMs: 200,
    });
    const error = network();
    expect(decideRetry(error, { attempt: 3, elapsedMs: 0 }, policy)).toEqual({
      retry: false,
      error,
    });
  });

  it('does not retry non-retryable types, plain errors, or a ToolError that opts out', () => {
    const policy = resolveRetryPolicy();
    for (const error of [
      new InvalidInputError('bad'),
      new Error('bug'),
      'thrown string',
      new RateLimitedError('quota exhausted', { retryable: false }),
    ]) {
      expect(decideRetry(error, { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
        retry: false,
        error,
      });
    }
  });

  it('takes retryOn as a type list, a predicate, or both', () => {
    const state = { attempt: 1, elapsedMs: 0 };
    const onlyInvalid = resolveRetryPolicy({ retryOn: ['invalid_input'] });
    expect(decideRetry(new InvalidInputError('x'), state, onlyInvalid).retry).toBe(true);
    expect(decideRetry(network(), state, onlyInvalid).retry).toBe(false);
    const predicate = resolveRetryPolicy({ retryOn: (error) => error === 'again' });
    expect(decideRetry('again', state, predicate).retry).toBe(true);
    const both = resolveRetryPolicy({
      retryOn: {
        types: ['upstream_unavailable'],
        when: (error) => (error as Error).message === '503',
      },
    });
    expect(decideRetry(new UpstreamUnavailableError('503'), state, both).retry).toBe(true);
    expect(decideRetry(new UpstreamUnavailableError('500'), state, both).retry).toBe(false);
  });

  it('waits exactly retryAfterMs when the server asks for it', () => {
    const policy = resolveRetryPolicy();
    const error = new RateLimitedError('slow down', { retryAfterMs: 2_000 });
    expect(decideRetry(error, { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
      retry: true,
      delayMs: 2_000,
    });
  });

  it('waits at least the backoff minimum when the server says Retry-After: 0 (or less than it)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        (baseMs, capMs, retryAfterMs) => {
          const policy = resolveRetryPolicy({ backoff: { baseMs, capMs } });
          const error = new RateLimitedError('429', { retryAfterMs });
          expect(decideRetry(error, { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
            retry: true,
            delayMs: Math.max(retryAfterMs, Math.min(baseMs, capMs)),
          });
        },
      ),
    );
    const zero = new RateLimitedError('429', { retryAfterMs: 0 });
    expect(decideRetry(zero, { attempt: 1, elapsedMs: 0 }, resolveRetryPolicy())).toEqual({
      retry: true,
      delayMs: 500,
    });
  });

  it('gives up at once with rate_limited and retryAfterMs beyond the cap or the budget', () => {
    const capped = resolveRetryPolicy({ maxRetryAfterMs: 1_000 });
    const upstream = new UpstreamUnavailableError('503', {
      retryAfterMs: 5_000,
      toolName: 'search',
    });
    const decision = decideRetry(upstream, { attempt: 1, elapsedMs: 0 }, capped);
    expect(decision.retry).toBe(false);
    const error = (decision as { error: RateLimitedError }).error;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 5_000, toolName: 'search', cause: upstream });

    const budget = resolveRetryPolicy({ budgetMs: 3_000 });
    const limited = new RateLimitedError('429', { retryAfterMs: 2_000 });
    expect(decideRetry(limited, { attempt: 1, elapsedMs: 1_500 }, budget)).toEqual({
      retry: false,
      error: limited,
    });
  });

  it('never schedules a retry that starts past the budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined }),
        (budgetMs, elapsedMs, attempt, r, retryAfterMs) => {
          const policy = resolveRetryPolicy({
            maxRetries: 10,
            budgetMs,
            backoff: { random: () => r },
          });
          const error = new RateLimitedError('429', { retryAfterMs });
          const decision = decideRetry(error, { attempt, elapsedMs }, policy);
          if (decision.retry) {
            expect(decision.delayMs).toBeGreaterThanOrEqual(0);
            expect(elapsedMs + decision.delayMs).toBeLessThan(budgetMs);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('decideRetryOnResult', () => {
  it('retries refused results while retries last, then lets the result stand', () => {
    const policy = resolveRetryPolicy({
      maxRetries: 1,
      retryOnResult: (result) => result === 'empty',
      backoff: { jitter: 'none', baseMs: 50 },
    });
    expect(decideRetryOnResult('empty', { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
      retry: true,
      delayMs: 50,
    });
    expect(decideRetryOnResult('empty', { attempt: 2, elapsedMs: 0 }, policy)).toEqual({
      retry: false,
    });
    expect(decideRetryOnResult('full', { attempt: 1, elapsedMs: 0 }, policy)).toEqual({
      retry: false,
    });
    expect(
      decideRetryOnResult('empty', { attempt: 1, elapsedMs: 0 }, resolveRetryPolicy()),
    ).toEqual({ retry: false });
  });
});
