import { expect, it } from '@jest/globals';
import { InvalidOptionsError, shieldTool, type RetryBudgetStore } from '@toolshield/core';
import { LocalRetryBudgetStore } from '@toolshield/core/internal';
import { Redis } from 'ioredis';
import { RedisRetryBudgetStore } from '../src/index.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { eventually } from './support/eventually.js';
import { useRedisServer } from './support/redis-suite.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

/** A budget of 5 retries that only successes refill, half a retry each. */
const BUDGET = { ratio: 0, successRatio: 0.5, minRetriesPerSecond: 0, burst: 5, key: 'search-api' };

/** A tool of one instance: 1 retry per call, from {@link BUDGET}; its upstream is dead unless `answer` says otherwise. */
function tool(
  store: RetryBudgetStore,
  answer: () => string = () => {
    throw refused();
  },
) {
  return shieldTool(answer, {
    name: 'web_search',
    idempotent: true,
    breaker: false,
    retryBudgetStore: store,
    retry: { maxRetries: 1, backoff: { baseMs: 1, capMs: 1 }, retryBudget: BUDGET },
  });
}
const deadTool = (store: RetryBudgetStore) => tool(store);

describeWithRedis('retry budgets shared on a real Redis (instances in this process)', () => {
  const suite = useRedisServer();

  async function instance(prefix: string) {
    const connection = new Redis(suite.server.url, { maxRetriesPerRequest: 1 });
    const store = new RedisRetryBudgetStore({ connection, keyPrefix: prefix, syncIntervalMs: 20 });
    suite.cleanups.push(async () => {
      await store.close();
      connection.disconnect();
    });
    await eventually(() => store.health().status === 'shared');
    return { store, tool: deadTool(store) };
  }

  it('withholds retries on one instance once another spent the shared budget', async () => {
    const a = await instance('budget-1:');
    const b = await instance('budget-1:');
    const spent = await Promise.all(Array.from({ length: 5 }, () => a.tool({})));
    expect(spent.map((outcome) => !outcome.success && outcome.retryCount)).toEqual([1, 1, 1, 1, 1]);
    await a.store.sync();
    await b.store.sync();
    const outcome = await b.tool({});
    expect(outcome).toMatchObject({
      success: false,
      retryCount: 0,
      metadata: { retriesWithheld: true },
    });
    // Each instance on its own memory would have retried it.
    const alone = await deadTool(new LocalRetryBudgetStore())({});
    expect(alone).toMatchObject({ retryCount: 1 });
  });

  it('funds retries on one instance with the successes of another', async () => {
    const a = await instance('budget-4:');
    const b = await instance('budget-4:');
    await Promise.all(Array.from({ length: 5 }, () => a.tool({})));
    const healthy = tool(a.store, () => 'ok');
    for (let call = 0; call < 4; call++) await healthy({});
    await a.store.sync();
    await b.store.sync();
    const outcomes = await Promise.all(Array.from({ length: 3 }, () => b.tool({})));
    expect(outcomes.map((outcome) => !outcome.success && outcome.retryCount)).toEqual([1, 1, 0]);
  });

  it('keeps budgets of other prefixes and keys apart', async () => {
    const a = await instance('budget-2:');
    const b = await instance('budget-3:');
    await Promise.all(Array.from({ length: 5 }, () => a.tool({})));
    await a.store.sync();
    await b.store.sync();
    expect(await b.tool({})).toMatchObject({ retryCount: 1 });
  });

  it('decides on its own counts while Redis cannot be reached', async () => {
    const connection = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    const store = new RedisRetryBudgetStore({ connection, commandTimeoutMs: 50 });
    suite.cleanups.push(async () => {
      await store.close();
      connection.disconnect();
    });
    const tool = deadTool(store);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => tool({})));
    expect(outcomes.map((outcome) => !outcome.success && outcome.retryCount)).toEqual([
      1, 1, 1, 1, 1, 0,
    ]);
    expect(store.health().status).toBe('degraded');
  });

  it('refuses bad options, naming them', () => {
    const connection = new Redis(suite.server.url, { lazyConnect: true });
    expect(() => new RedisRetryBudgetStore({ connection, syncIntervalMs: Number.NaN })).toThrow(
      InvalidOptionsError,
    );
    expect(() => new RedisRetryBudgetStore({ connection, syncIntervalMs: 0 })).toThrow(
      /syncIntervalMs must be a number of milliseconds above 0, got 0/,
    );
    connection.disconnect();
  });
});
