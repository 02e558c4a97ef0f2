import { expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { MAX_RECONNECT_DELAY_MS, reconnectDelay } from '../src/reconnect-delay.js';
import { breakerInstance, sharing } from './support/breaker-instance.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { eventually, REJOIN_WITHIN_MS } from './support/eventually.js';
import { useRedisServer } from './support/redis-suite.js';

describeWithRedis('rejoining promptly when Redis answers again', () => {
  const suite = useRedisServer();

  it('reconnects the connections it owns after 50 ms, doubling, never more than 500 ms apart', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (attempt) => {
        const delay = reconnectDelay(attempt);
        expect(delay).toBeGreaterThanOrEqual(50);
        expect(delay).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_MS);
        expect(delay).toBeGreaterThanOrEqual(reconnectDelay(Math.max(1, attempt - 1)));
      }),
    );
  });

  // The caller's client waits a minute between attempts (ioredis's default waits up to 5 s):
  // the store's own pub/sub connection reaches Redis first and wakes it.
  it('wakes a client of yours that waits out a long reconnect backoff, and rejoins', async () => {
    const slow = new Redis(suite.server.url, { retryStrategy: () => 60_000 });
    try {
      const a = breakerInstance(suite, 'p1:', { connection: slow });
      const b = breakerInstance(suite, 'p1:');
      await sharing(a, b);
      await suite.server.kill();
      await eventually(() => slow.status === 'reconnecting', REJOIN_WITHIN_MS);

      await suite.server.restart();
      await eventually(() => a.store.health().status === 'shared', REJOIN_WITHIN_MS);
      // b rejoins on its own connection: opened before it has, its breaker opens locally
      // only, and a would wait for the test's timeout (it did once beside two CPU burners).
      await eventually(() => b.store.health().status === 'shared', REJOIN_WITHIN_MS);
      b.breaker().open();
      await a.reaches('open');
      // A client its owner ended stays ended.
      slow.disconnect();
      await eventually(() => slow.status === 'end', REJOIN_WITHIN_MS);
      expect(a.store.health().status).toBe('degraded');
    } finally {
      // Failed or timed out, a client reconnecting every minute would keep the run alive.
      slow.disconnect();
    }
  });
});
