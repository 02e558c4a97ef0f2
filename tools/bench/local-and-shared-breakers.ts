/**
 * The setup both shared-breaker benchmarks use: one breaker in a plain registry and one with
 * the same options in a registry on a `RedisBreakerStore` against a real `redis-server`
 * started here (a free port, no persistence), measured in alternated rounds.
 */
import { type CircuitBreakerOptions } from '@toolshield/core';
import { CircuitBreakerRegistry, type ToolCircuitBreaker } from '@toolshield/core/internal';
import { RedisBreakerStore } from '@toolshield/redis';
import { RedisServer } from '@toolshield/redis/testing';
import { Redis } from 'ioredis';
import { median } from './stats.js';

/** The median of `rounds` measurements of each breaker (rounds alternate which goes first). */
export async function measureLocalAndShared(
  keyPrefix: string,
  defaults: CircuitBreakerOptions,
  rounds: number,
  measure: (breaker: ToolCircuitBreaker) => Promise<number>,
): Promise<{ local: number; shared: number }> {
  const server = await RedisServer.start();
  const connection = new Redis(server.url);
  const store = new RedisBreakerStore({ connection, keyPrefix });
  const local = new CircuitBreakerRegistry({ defaults });
  const shared = new CircuitBreakerRegistry({ store, defaults });
  try {
    while (store.health().status !== 'shared')
      await new Promise((resolve) => setTimeout(resolve, 20));
    const results = { local: [] as number[], shared: [] as number[] };
    const breakers = { local: local.get('search'), shared: shared.get('search') };
    for (let round = 0; round < rounds; round++) {
      for (const row of round % 2 === 0
        ? (['local', 'shared'] as const)
        : (['shared', 'local'] as const))
        results[row].push(await measure(breakers[row]));
    }
    if (breakers.shared.state !== 'closed') throw new Error('The shared breaker left closed');
    return { local: median(results.local), shared: median(results.shared) };
  } finally {
    local.dispose();
    shared.dispose();
    await store.close();
    connection.disconnect();
    await server.stop();
  }
}
