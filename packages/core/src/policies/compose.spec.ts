import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../clock/virtual-clock.js';
import { BulkheadFullError } from '../errors/bulkhead-full.error.js';
import { CancelledError } from '../errors/cancelled.error.js';
import { CircuitOpenError } from '../errors/circuit-open.error.js';
import { NetworkError } from '../errors/network.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import { ToolCircuitBreaker } from './breaker/circuit-breaker.js';
import { Bulkhead } from './bulkhead.js';
import { composePolicies, executeWithPolicies } from './compose.js';

const econnreset = () => new NetworkError('read ECONNRESET', { metadata: { code: 'ECONNRESET' } });
const hang = () => new Promise<never>(() => undefined);

describe('composePolicies', () => {
  it('reports attempts truthfully: ECONNRESET twice then success', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    const outcome = executeWithPolicies(
      async ({ attempt }) => {
        calls++;
        if (attempt <= 2) throw econnreset();
        return `ok on attempt ${attempt}`;
      },
      { retry: { maxRetries: 2 }, timeoutMs: 1_000, clock },
    );
    await clock.runAll();
    await expect(outcome).resolves.toEqual({
      ok: true,
      value: 'ok on attempt 3',
      attempts: 3,
      retryCount: 2,
      retryMax: 2,
    });
    expect(calls).toBe(3);
    expect(clock.pendingTimers).toBe(0);
  });

  it('ends an attempt when the retry budget runs out, with or without its own limit', async () => {
    for (const timeoutMs of [1_000, undefined]) {
      const clock = new VirtualClock();
      const starts: number[] = [];
      const outcome = executeWithPolicies(
        () => {
          starts.push(clock.now());
          return hang();
        },
        {
          retry: { maxRetries: 5, budgetMs: 1_500, backoff: { baseMs: 100, jitter: 'none' } },
          timeoutMs,
          clock,
        },
      );
      await clock.runAll();
      await expect(outcome).resolves.toMatchObject({
        ok: false,
        error: { type: 'timeout', metadata: { budgetMs: 1_500 } },
      });
      expect(clock.now()).toBe(1_500);
      expect(starts).toEqual(timeoutMs === undefined ? [0] : [0, 1_100]);
    }
  });

  it('times out every attempt and aborts each attempt signal', async () => {
    const clock = new VirtualClock();
    const signals: AbortSignal[] = [];
    const outcome = executeWithPolicies(
      ({ signal }) => {
        signals.push(signal);
        return hang();
      },
      { retry: { maxRetries: 1, backoff: { jitter: 'none', baseMs: 100 } }, timeoutMs: 50, clock },
    );
    await clock.runAll();
    const result = await outcome;
    expect(result).toMatchObject({ ok: false, attempts: 2, retryCount: 1, retryMax: 1 });
    expect(result.ok ? undefined : result.error).toBeInstanceOf(ToolTimeoutError);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    expect(clock.now()).toBe(50 + 100 + 50);
  });

  it('stops retrying when the breaker opens, without calling the tool again', async () => {
    const clock = new VirtualClock();
    const breaker = new ToolCircuitBreaker({ volumeThreshold: 2 }, { clock, tool: 'weather' });
    let calls = 0;
    const dead = async () => {
      calls++;
      throw econnreset();
    };
    // This call retries a second later ...
    const backoff = { baseMs: 1_000, jitter: 'none' as const };
    const patient = executeWithPolicies(dead, {
      retry: { maxRetries: 5, backoff },
      breaker,
      clock,
    });
    // ... by when two failed calls have opened the breaker.
    await executeWithPolicies(dead, { breaker, clock });
    await executeWithPolicies(dead, { breaker, clock });
    expect(breaker.state).toBe('open');
    await clock.advanceBy(60_000);
    const result = await patient;
    expect(result).toMatchObject({ ok: false, attempts: 2, retryCount: 1, retryMax: 5 });
    expect(result.ok ? undefined : result.error).toBeInstanceOf(CircuitOpenError);
    expect(calls).toBe(3);
    breaker.dispose();
  });

  it('counts calls in the breaker, not attempts: a failure counts once its retries are over', async () => {
    const clock = new VirtualClock();
    const breaker = new ToolCircuitBreaker({}, { clock, tool: 'weather' });
    const retry = { maxRetries: 2, backoff: { baseMs: 10, jitter: 'none' as const } };
    const run = composePolicies({ retry, breaker, clock });
    // Twenty calls whose first attempt fails and whose retry succeeds: 20 successes.
    for (let call = 0; call < 20; call++) {
      const outcome = run(async ({ attempt }) => {
        if (attempt === 1) throw econnreset();
        return 'ok';
      });
      await clock.runAll();
      expect(await outcome).toMatchObject({ ok: true, attempts: 2 });
    }
    expect(breaker.stats()).toEqual({ successes: 20, failures: 0 });
    // A call whose every attempt fails counts one failure.
    const failed = run(async () => {
      throw econnreset();
    });
    await clock.runAll();
    expect(await failed).toMatchObject({ ok: false, attempts: 3 });
    expect(breaker.stats()).toEqual({ successes: 20, failures: 1 });
    breaker.dispose();
  });

  it('retries a full bulkhead and ends the wait when the caller aborts', async () => {
    const clock = new VirtualClock();
    const bulkhead = new Bulkhead({ maxConcurrent: 1 });
    void bulkhead.execute(hang);
    const caller = new AbortController();
    const run = composePolicies({ retry: { maxRetries: 3 }, bulkhead, timeoutMs: 1_000, clock });
    const outcome = run(async () => 'never', caller.signal);
    await clock.advanceBy(0);
    caller.abort();
    const result = await outcome;
    expect(result).toMatchObject({ ok: false, attempts: 1, retryCount: 0, retryMax: 3 });
    expect(result.ok ? undefined : result.error).toBeInstanceOf(CancelledError);
    expect(clock.pendingTimers).toBe(0);
  });

  it('passes a bulkhead rejection through without a retry policy', async () => {
    const bulkhead = new Bulkhead({ maxConcurrent: 1 });
    void bulkhead.execute(hang);
    const result = await executeWithPolicies(async () => 1, { bulkhead });
    expect(result).toMatchObject({ ok: false, attempts: 1, retryCount: 0, retryMax: 0 });
    expect(result.ok ? undefined : result.error).toBeInstanceOf(BulkheadFullError);
  });

  it('runs a bare call with a live signal and no timers', async () => {
    const clock = new VirtualClock();
    const result = await executeWithPolicies(async ({ signal }) => signal.aborted, { clock });
    expect(result).toEqual({ ok: true, value: false, attempts: 1, retryCount: 0, retryMax: 0 });
    expect(clock.pendingTimers).toBe(0);
  });

  it('never makes more than retryMax + 1 attempts through the whole stack', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.constantFrom('network', 'hang', 'ok', 'bug'), { minLength: 1, maxLength: 10 }),
        async (maxRetries, script) => {
          const clock = new VirtualClock();
          const breaker = new ToolCircuitBreaker({ volumeThreshold: 3 }, { clock, tool: 't' });
          let calls = 0;
          const outcome = executeWithPolicies(
            async () => {
              const next = script[calls++ % script.length];
              if (next === 'network') throw econnreset();
              if (next === 'hang') return hang();
              if (next === 'bug') throw new Error('bug');
              return 'ok';
            },
            {
              retry: { maxRetries },
              breaker,
              timeoutMs: 100,
              bulkhead: new Bulkhead({ maxConcurrent: 1 }),
              clock,
            },
          );
          await clock.runAll();
          const result = await outcome;
          expect(result.attempts).toBe(result.retryCount + 1);
          expect(result.attempts).toBeLessThanOrEqual(maxRetries + 1);
          expect(calls).toBeLessThanOrEqual(result.attempts);
          breaker.dispose();
          expect(clock.pendingTimers).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
