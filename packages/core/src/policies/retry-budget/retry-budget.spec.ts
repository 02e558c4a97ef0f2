import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { NetworkError } from '../../errors/network.error.js';
import { InvalidOptionsError } from '../../options/invalid-options.error.js';
import { renderFailureText } from '../../rendering/render-failure-text.js';
import type { ToolFailure } from '../../results/tool-outcome.js';
import { shieldTool } from '../../shield/shield-tool.js';
import { retry } from '../retry.js';
import { resolveRetryPolicy } from '../retry-policy.js';
import { resolveRetryBudget, type RetryBudgetOptions } from './retry-budget-options.js';
import { LocalRetryBudgetStore } from './retry-budget-store.js';
import { retryBudgetGate } from './retry-budget.js';

const econnrefused = () =>
  Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const quick = { backoff: { baseMs: 10, capMs: 10, jitter: 'none' as const } };

/** A tool in front of an upstream that refuses every connection, counting what reaches it. */
function deadUpstream(retryOptions: object = {}, clock = new VirtualClock()) {
  const received = { requests: 0 };
  const tool = shieldTool(
    () => {
      received.requests++;
      throw econnrefused();
    },
    {
      name: 'web_search',
      idempotent: true,
      breaker: false,
      clock,
      retry: { ...quick, ...retryOptions },
    },
  );
  return { tool, received, clock };
}

/** `waves` waves of `callers` concurrent calls, one wave every 100 ms of virtual time. */
async function hammer(
  tool: ReturnType<typeof deadUpstream>['tool'],
  clock: VirtualClock,
  callers: number,
  waves: number,
) {
  const failures: ToolFailure[] = [];
  for (let wave = 0; wave < waves; wave++) {
    const calls = Array.from({ length: callers }, (_, caller) =>
      tool({}, { callId: `w${wave}c${caller}` }),
    );
    await clock.advanceBy(100);
    await clock.runAll();
    for (const outcome of await Promise.all(calls)) if (!outcome.success) failures.push(outcome);
  }
  return failures;
}

describe('retry budget', () => {
  it('keeps a dead upstream at about 1.2 requests per call by default (3 without it)', async () => {
    const on = deadUpstream();
    const failures = await hammer(on.tool, on.clock, 100, 100);
    expect(failures).toHaveLength(10_000);
    expect(on.received.requests / 10_000).toBeLessThanOrEqual(1.2);

    const off = deadUpstream({ retryBudget: false });
    await hammer(off.tool, off.clock, 100, 10);
    expect(off.received.requests).toBe(3_000);
  });

  it('returns a withheld failure at once, with a truthful retryCount and a text that says why', async () => {
    const { tool, clock } = deadUpstream({ retryBudget: { minRetriesPerSecond: 0, burst: 0 } });
    const outcome = tool({}, { callId: 'c1' });
    await clock.runAll();
    const failure = (await outcome) as ToolFailure;
    expect(failure).toMatchObject({
      success: false,
      errorType: 'network',
      retryCount: 0,
      retryMax: 2,
      metadata: { attempts: 1, durationMs: 0, retriesWithheld: true },
    });
    expect(renderFailureText(failure)).toContain(
      'Retries were withheld to protect the upstream: too many calls to it are failing.',
    );
    expect(failure.suggestions[0]).toMatch(/^Do not repeat this call now/);
  });

  it('retries a first burst of failures, then what calls, successes and time earn', async () => {
    let failNext = 0;
    const clock = new VirtualClock();
    const tool = shieldTool(
      () => {
        if (failNext-- > 0) throw econnrefused();
        return 'ok';
      },
      {
        name: 'quiet',
        idempotent: true,
        breaker: false,
        clock,
        retry: {
          ...quick,
          maxRetries: 5,
          retryBudget: { burst: 10, ratio: 0, successRatio: 0.5, minRetriesPerSecond: 1 },
        },
      },
    );
    const call = async () => {
      const outcome = tool({});
      await clock.runAll();
      return outcome;
    };
    // A fresh budget holds `burst` retries: two calls failing every attempt spend 5 + 5.
    failNext = 12;
    expect(await call()).toMatchObject({ success: false, retryCount: 5 });
    expect(await call()).toMatchObject({ success: false, retryCount: 5 });
    // The 100 ms of backoff earned a tenth of a retry (1 a second): not a whole one yet.
    failNext = 1;
    expect(await call()).toMatchObject({ retryCount: 0, metadata: { retriesWithheld: true } });
    // Two successes earn one retry (with what time earned meanwhile).
    await call();
    await call();
    failNext = 1;
    expect(await call()).toMatchObject({ success: true, metadata: { attempts: 2 } });
    // Time refills it, never above `burst`: an hour later a failing call gets 5, the next 5 more.
    await clock.advanceBy(3_600_000);
    failNext = 12;
    expect(await call()).toMatchObject({ retryCount: 5 });
    expect(await call()).toMatchObject({ retryCount: 5 });
  });

  it('is shared by the tools that name one key in one store', async () => {
    const clock = new VirtualClock();
    const store = new LocalRetryBudgetStore();
    const budget = { key: 'search-api', ratio: 0, minRetriesPerSecond: 0, burst: 1 }; // 1 retry
    const make = (name: string) =>
      shieldTool(
        () => {
          throw econnrefused();
        },
        {
          name,
          idempotent: true,
          breaker: false,
          clock,
          retryBudgetStore: store,
          retry: { ...quick, maxRetries: 1, retryBudget: budget },
        },
      );
    const first = make('search_web')({});
    await clock.runAll();
    const second = make('search_news')({});
    await clock.runAll();
    expect(await first).toMatchObject({ retryCount: 1 });
    expect(await second).toMatchObject({ retryCount: 0, metadata: { retriesWithheld: true } });
  });

  it('gates the bare retry() helper through a budget gate, and tells onWithheld', async () => {
    const clock = new VirtualClock();
    const gate = retryBudgetGate(
      'api',
      resolveRetryBudget({ minRetriesPerSecond: 0, burst: 0 }),
      new LocalRetryBudgetStore(),
      clock,
    );
    const withheld: number[] = [];
    let attempts = 0;
    const run = retry(
      () => {
        attempts++;
        return Promise.reject(new NetworkError('connect ECONNREFUSED'));
      },
      { maxRetries: 3 },
      { clock, budget: gate, onWithheld: (info) => withheld.push(info.attempt) },
    );
    await expect(run).rejects.toBeInstanceOf(NetworkError);
    expect({ attempts, withheld }).toEqual({ attempts: 1, withheld: [1] });
  });

  it.each<[string, RetryBudgetOptions | string, RegExp]>([
    [
      'NaN ratio',
      { ratio: Number.NaN },
      /retryBudget\.ratio must be a number from 0 to 1000, got NaN/,
    ],
    ['negative floor', { minRetriesPerSecond: -1 }, /retryBudget\.minRetriesPerSecond must be/],
    [
      'negative burst',
      { burst: -1 },
      /retryBudget\.burst must be a number from 0 to 1000000, got -1/,
    ],
    ['NaN successRatio', { successRatio: Number.NaN }, /retryBudget\.successRatio must be/],
    [
      'the old windowMs',
      { windowMs: 10_000 } as RetryBudgetOptions,
      /retryBudget\.windowMs must be absent/,
    ],
    ['blank key', { key: ' ' }, /retryBudget\.key must be/],
    ['unknown option', { ratoi: 0.1 } as RetryBudgetOptions, /retryBudget\.ratoi must be absent/],
    [
      '__proto__',
      JSON.parse('{"__proto__": {"ratio": 5}}') as RetryBudgetOptions,
      /retryBudget\.__proto__ must be absent/,
    ],
    ['not an object', 'on', /retryBudget must be false, or an object/],
  ])('refuses %s with an InvalidOptionsError naming the field', (_, retryBudget, message) => {
    const resolve = () => resolveRetryPolicy({ retryBudget: retryBudget as RetryBudgetOptions });
    expect(resolve).toThrow(InvalidOptionsError);
    expect(resolve).toThrow(message);
  });

  // What RetryBudgetOptions promise: over any stretch of time, the retries granted stay within
  // `burst` plus what the calls, the successes and the time of that stretch earned.
  it('never grants more than burst plus what a stretch of time earned, whatever the settings and traffic', () => {
    fc.assert(
      fc.property(
        fc.record({
          ratio: fc.double({ min: 0, max: 2, noNaN: true }),
          successRatio: fc.double({ min: 0, max: 2, noNaN: true }),
          minRetriesPerSecond: fc.double({ min: 0, max: 20, noNaN: true }),
          burst: fc.double({ min: 0, max: 50, noNaN: true }),
        }),
        fc.array(
          fc.record({
            gapMs: fc.integer({ min: 0, max: 2_000 }),
            kind: fc.constantFrom('call', 'success', 'retry'),
          }),
          { maxLength: 150 },
        ),
        (options, steps) => {
          const settings = resolveRetryBudget(options);
          const store = new LocalRetryBudgetStore();
          const log: { at: number; earned: number; granted: number }[] = [];
          let now = 0;
          for (const { gapMs, kind } of steps) {
            now += gapMs;
            if (kind === 'call') store.recordCall('k', settings, now);
            if (kind === 'success') store.recordSuccess('k', settings, now);
            const granted = kind === 'retry' && store.tryRetry('k', settings, now) ? 1 : 0;
            const earned =
              kind === 'call' ? settings.ratio : kind === 'success' ? settings.successRatio : 0;
            log.push({ at: now, earned, granted });
          }
          for (let first = 0; first < log.length; first++) {
            let earned = 0;
            let granted = 0;
            for (const entry of log.slice(first)) {
              earned += entry.earned;
              granted += entry.granted;
              const seconds = (entry.at - (log[first] as { at: number }).at) / 1_000;
              const allowed = settings.burst + earned + settings.minRetriesPerSecond * seconds;
              expect(granted).toBeLessThanOrEqual(allowed + 1e-9);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('grants a retry whenever the balance holds one: what a drained budget earns comes back', () => {
    const settings = resolveRetryBudget({ ratio: 0.25, successRatio: 0.5, minRetriesPerSecond: 0 });
    const store = new LocalRetryBudgetStore();
    const grants = (count: number) =>
      Array.from({ length: count }, () => store.tryRetry('k', settings, 0)).filter(Boolean).length;
    expect(grants(40)).toBe(30);
    for (let call = 0; call < 4; call++) store.recordCall('k', settings, 0);
    store.recordSuccess('k', settings, 0);
    store.recordSuccess('k', settings, 0);
    expect(grants(5)).toBe(2);
  });
});
