import { type CircuitBreakerOptions } from '@toolshield/core';
import { type CircuitState } from '@toolshield/core/events';
import { CircuitBreakerRegistry } from '@toolshield/core/internal';
import { Redis } from 'ioredis';
import { RedisBreakerStore, type RedisBreakerStoreOptions } from '../../src/index.js';
import { eventually, REJOIN_WITHIN_MS } from './eventually.js';
import type { RedisSuite } from './redis-suite.js';

/** One app instance in this process: its own connection, store and registry on the suite's Redis. */
export interface BreakerInstance {
  readonly store: RedisBreakerStore;
  readonly registry: CircuitBreakerRegistry;
  readonly connection: Redis;
  /** Every state change of the instance's breakers, as `from>to`, in order. */
  readonly transitions: string[];
  /**
   * Settles when the `search` breaker is in `state`: at once, or on the state change that
   * takes it there (no time bound of its own: the test's timeout is the bound).
   */
  reaches(state: CircuitState): Promise<void>;
  /** The instance's `search` breaker (created on first use). */
  breaker(): ReturnType<CircuitBreakerRegistry['get']>;
}

/**
 * An instance sharing its breakers under `prefix` (threshold: 10 calls, 50 % failures; open
 * for 300 ms, unless `breakerOptions` say otherwise), closed by the suite after the test. The
 * connection retries every 20 ms and gives a queued command up after one retry, so a spec's
 * outage is short.
 */
export function breakerInstance(
  suite: RedisSuite,
  prefix: string,
  options: Partial<RedisBreakerStoreOptions> = {},
  breakerOptions: CircuitBreakerOptions = {},
): BreakerInstance {
  const connection = new Redis(suite.server.url, {
    maxRetriesPerRequest: 1,
    retryStrategy: () => 20,
  });
  const store = new RedisBreakerStore({
    connection,
    keyPrefix: prefix,
    commandTimeoutMs: 100,
    ...options,
  });
  const transitions: string[] = [];
  const waiting = new Set<{ state: CircuitState; reached: () => void }>();
  const registry = new CircuitBreakerRegistry({
    store,
    defaults: {
      volumeThreshold: 10,
      errorThresholdPercentage: 50,
      resetTimeoutMs: 300,
      ...breakerOptions,
    },
    onStateChange: ({ from, to }) => {
      transitions.push(`${from}>${to}`);
      for (const wait of waiting) {
        if (wait.state !== to) continue;
        waiting.delete(wait);
        wait.reached();
      }
    },
  });
  const breaker = () => registry.get('search');
  const reaches = (state: CircuitState) =>
    breaker().state === state
      ? Promise.resolve()
      : new Promise<void>((reached) => waiting.add({ state, reached }));
  suite.cleanups.push(async () => {
    registry.dispose();
    await store.close();
    // A connection a spec ended already is left alone (ioredis would wait 2 s to end it again).
    if (connection.status !== 'end') connection.disconnect();
  });
  return { store, registry, connection, transitions, reaches, breaker };
}

/** Creates each instance's breaker and waits until every one shares it on Redis. */
export async function sharing(...instances: BreakerInstance[]): Promise<void> {
  for (const one of instances) {
    one.breaker();
    await eventually(() => one.store.health().status === 'shared', REJOIN_WITHIN_MS);
  }
  await new Promise((resolve) => setTimeout(resolve, 30));
}

/** Runs `calls` failing calls on the instance's breaker, one after the other. */
export async function failures(instance: BreakerInstance, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++)
    await instance
      .breaker()
      .execute(() => Promise.reject(new Error('upstream down')))
      .catch(() => undefined);
}
