import { expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { breakerInstance, failures, sharing } from './support/breaker-instance.js';
import { eventually, REJOIN_WITHIN_MS } from './support/eventually.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { useRedisServer } from './support/redis-suite.js';

const ok = (): Promise<string> => Promise.resolve('ok');

describeWithRedis('breakers rejoining the shared state on a real Redis', () => {
  const suite = useRedisServer();

  /** Counts in the breaker's shared window (every version and bucket, every instance). */
  async function countsInRedis(prefix: string): Promise<{ successes: number; failures: number }> {
    const raw = new Redis(suite.server.url);
    try {
      const counts = { successes: 0, failures: 0 };
      for (const key of await raw.keys(`${prefix}breaker:{search}:w:*`)) {
        for (const [field, value] of Object.entries(await raw.hgetall(key)))
          counts[field.endsWith(':f') ? 'failures' : 'successes'] += Number(value);
      }
      return counts;
    } finally {
      raw.disconnect();
    }
  }

  it('adds the counts made while Redis was away to the shared window when it returns, once, and opens when together they cross the threshold', async () => {
    const a = breakerInstance(suite, 'r1:');
    const b = breakerInstance(suite, 'r1:');
    await sharing(a, b);
    await suite.server.kill();
    await eventually(
      () => a.store.health().status === 'degraded' && b.store.health().status === 'degraded',
    );
    // Five failures each: under the volume threshold (10) alone, at it together.
    await failures(a, 5);
    await failures(b, 5);
    expect([a.breaker().state, b.breaker().state]).toEqual(['closed', 'closed']);

    await suite.server.restart();
    // What the test means: both open once they rejoin (however long the machine takes to
    // reconnect them; the test's timeout is the only bound), not a fixed time.
    await Promise.all([a.reaches('open'), b.reaches('open')]);
    // Each instance rejoins on both of its connections: the counts still went in once.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await countsInRedis('r1:')).toEqual({ successes: 0, failures: 10 });
  });

  it('opens the shared breaker when an instance cut off from Redis comes back open on counts the window confirms', async () => {
    const a = breakerInstance(suite, 'r2:');
    const b = breakerInstance(suite, 'r2:');
    await sharing(a, b);
    a.connection.disconnect(); // only a is cut off: Redis keeps the shared (closed) state
    await eventually(() => a.store.health().status === 'degraded');
    await failures(a, 10);
    expect([a.breaker().state, b.breaker().state]).toEqual(['open', 'closed']);

    await a.connection.connect();
    await b.reaches('open');
    expect(a.breaker().state).toBe('open');
  });

  it('follows the shared closed state when the others’ calls in the window outweigh its failures', async () => {
    const a = breakerInstance(suite, 'r3:');
    const b = breakerInstance(suite, 'r3:');
    await sharing(a, b);
    a.connection.disconnect();
    await eventually(() => a.store.health().status === 'degraded');
    await failures(a, 10);
    for (let i = 0; i < 20; i++) await b.breaker().execute(ok);
    expect(a.breaker().state).toBe('open');
    // b's successes are in the shared window before a comes back (b sends them every 25 ms).
    while ((await countsInRedis('r3:')).successes < 20)
      await new Promise((resolve) => setTimeout(resolve, 10));

    await a.connection.connect();
    // 10 failures in 30 calls: 33 %, under the 50 % threshold.
    await a.reaches('closed');
    // a's outage counts go in after it follows the closed state: wait for them, then for a
    // second join to have had its chance to add them again.
    while ((await countsInRedis('r3:')).failures < 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect([a.breaker().state, b.breaker().state]).toEqual(['closed', 'closed']);
    expect(await countsInRedis('r3:')).toEqual({ successes: 20, failures: 10 });
  });

  it('counts an instance started while Redis is down once it is up, and that instance follows the others', async () => {
    const b = breakerInstance(suite, 'r4:');
    await sharing(b);
    await suite.server.kill();
    const a = breakerInstance(suite, 'r4:');
    a.breaker();
    // Long enough for the client to give up what it queued (one retry, 20 ms apart).
    await new Promise((resolve) => setTimeout(resolve, 200));
    await failures(a, 4);

    await suite.server.restart();
    await eventually(
      () => a.store.health().status === 'shared' && b.store.health().status === 'shared',
      REJOIN_WITHIN_MS,
    );
    await eventually(() => (b.store.remote('search')?.failures ?? 0) === 4, REJOIN_WITHIN_MS);
    b.breaker().open();
    await a.reaches('open');
  });
});
