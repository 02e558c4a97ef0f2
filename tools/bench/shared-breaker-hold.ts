/**
 * What the hold after a failure costs on a shared breaker (ADR 0022): a closed breaker whose
 * calls alternate failure and success (a flaky upstream it never opens on), timing the success
 * right after each failure, once in a plain registry and once on a `RedisBreakerStore` against
 * a real `redis-server` started here, where that call waits until the failure is in the
 * shared window. Skipped, saying so, without `redis-server` on PATH.
 */
import { performance } from 'node:perf_hooks';
import { CircuitBreakerRegistry, type ToolCircuitBreaker } from '@toolshield/core';
import { RedisBreakerStore } from '@toolshield/redis';
import { RedisServer, redisServerAvailable } from '@toolshield/redis/testing';
import { Redis } from 'ioredis';
import { median, ratio, us } from './stats.js';

const PAIRS = Number(process.env.BENCH_HOLD_PAIRS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5) * 2 + 1;
const ok = (): Promise<number> => Promise.resolve(1);
const fail = (): Promise<never> => Promise.reject(new Error('flaky'));
/** Never opens on alternating outcomes: the ratio stays at 50 %, the failure run at 1. */
const FLAKY = { errorThresholdPercentage: 99 };

/** The rows' Markdown, or a line saying why they were skipped. */
export async function runSharedBreakerHold(log: (line: string) => void): Promise<string> {
  if (!redisServerAvailable)
    return 'Skipped the shared breaker hold rows: no redis-server on PATH.';
  log('shared breaker: the call after a failure, local vs on Redis ...');
  const server = await RedisServer.start();
  const connection = new Redis(server.url);
  const store = new RedisBreakerStore({ connection, keyPrefix: 'bench-hold:' });
  const local = new CircuitBreakerRegistry({ defaults: FLAKY });
  const shared = new CircuitBreakerRegistry({ store, defaults: FLAKY });
  try {
    while (store.health().status !== 'shared')
      await new Promise((resolve) => setTimeout(resolve, 20));
    const afterFailure = { local: [] as number[], shared: [] as number[] };
    const breakers = { local: local.get('search'), shared: shared.get('search') };
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of round % 2 === 0
        ? (['local', 'shared'] as const)
        : (['shared', 'local'] as const))
        afterFailure[row].push(await timeAfterFailure(breakers[row]));
    }
    const [l, s] = [median(afterFailure.local), median(afterFailure.shared)];
    if (breakers.shared.state !== 'closed') throw new Error('The shared breaker left closed');
    return [
      `Shared breaker, the call right after a failure (${PAIRS} failure/success pairs × ${ROUNDS} rounds, µs per call, median of round medians):`,
      '',
      '| Breaker | µs/call | vs local |',
      '|---|---:|---:|',
      `| local (\`CircuitBreakerRegistry\`) | ${us(l)} | 1.00× |`,
      `| shared on Redis (\`RedisBreakerStore\`), held for the failure's round trip | ${us(s)} | ${ratio(s / l)} |`,
    ].join('\n');
  } finally {
    local.dispose();
    shared.dispose();
    await store.close();
    connection.disconnect();
    await server.stop();
  }
}

/** The median time (µs) of a success called right after a failure. */
async function timeAfterFailure(breaker: ToolCircuitBreaker): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    await breaker.execute(fail).catch(() => undefined);
    const start = performance.now();
    await breaker.execute(ok);
    times.push((performance.now() - start) * 1_000);
  }
  return median(times);
}
