import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../clock/virtual-clock.js';
import { CancelledError } from '../errors/cancelled.error.js';
import { NetworkError } from '../errors/network.error.js';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import { retry } from './retry.js';
import type { RetryInfo } from './retry-policy.js';

const econnreset = () => new NetworkError('read ECONNRESET', { metadata: { code: 'ECONNRESET' } });

describe('retry', () => {
  it('ECONNRESET twice then success: succeeds after 2 retries', async () => {
    const clock = new VirtualClock();
    const onRetry = jest.fn<(info: RetryInfo) => void>();
    let calls = 0;
    const result = retry(
      async () => {
        if (++calls <= 2) throw econnreset();
        return 'ok';
      },
      { maxRetries: 2, onRetry },
      { clock },
    );
    await clock.runAll();
    await expect(result).resolves.toBe('ok');
    expect(calls).toBe(3);
    expect(onRetry.mock.calls.map(([info]) => info.attempt)).toEqual([1, 2]);
  });

  it('honours Retry-After: the next attempt starts no earlier than 2000 ms of clock time', async () => {
    const clock = new VirtualClock();
    const starts: number[] = [];
    const result = retry(
      async () => {
        starts.push(clock.now());
        if (starts.length === 1) throw new RateLimitedError('429', { retryAfterMs: 2_000 });
        return 'ok';
      },
      {},
      { clock },
    );
    await clock.advanceBy(1_999);
    expect(starts).toEqual([0]);
    await clock.advanceBy(1);
    await expect(result).resolves.toBe('ok');
    expect(starts).toEqual([0, 2_000]);
  });

  it('retries refused results and returns the last one when retries run out', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const result = retry(
      async () => ++calls,
      { maxRetries: 2, retryOnResult: () => true },
      { clock },
    );
    await clock.runAll();
    await expect(result).resolves.toBe(3);
  });

  it('stops waiting when the caller aborts, with a CancelledError', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const fn = jest.fn(async () => {
      throw econnreset();
    });
    const result = retry(fn, { maxRetries: 5 }, { clock, signal: controller.signal });
    await clock.advanceBy(0);
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps a ToolError abort reason as the final error', async () => {
    const deadline = new ToolTimeoutError('call budget spent');
    await expect(retry(async () => 1, {}, { signal: AbortSignal.abort(deadline) })).rejects.toBe(
      deadline,
    );
  });

  it('ends with the error an onRetry hook throws', async () => {
    const clock = new VirtualClock();
    const hookError = new Error('hook');
    const result = retry(
      async () => {
        throw econnreset();
      },
      {
        onRetry: () => {
          throw hookError;
        },
      },
      { clock },
    );
    await expect(result).rejects.toBe(hookError);
  });

  it('never makes more than maxRetries + 1 attempts, whatever the failures', async () => {
    const outcome = fc.constantFrom('network', 'rate', 'timeout', 'internal', 'ok', 'empty');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5 }),
        fc.array(outcome, { minLength: 1, maxLength: 12 }),
        fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
        async (maxRetries, script, budgetMs) => {
          const clock = new VirtualClock();
          let calls = 0;
          const result = retry(
            async () => {
              const next = script[calls++ % script.length];
              if (next === 'network') throw econnreset();
              if (next === 'rate') throw new RateLimitedError('429', { retryAfterMs: 1_500 });
              if (next === 'timeout') throw new ToolTimeoutError('slow');
              if (next === 'internal') throw new Error('bug');
              return next;
            },
            {
              maxRetries,
              budgetMs,
              retryOnResult: (value) => value === 'empty',
              backoff: { random: () => 0.5 },
            },
            { clock },
          ).catch(() => undefined);
          await clock.runAll();
          await result;
          expect(calls).toBeGreaterThanOrEqual(1);
          expect(calls).toBeLessThanOrEqual(maxRetries + 1);
          if (budgetMs !== undefined) expect(clock.now()).toBeLessThan(budgetMs);
        },
      ),
      { numRuns: 300 },
    );
  });
});
