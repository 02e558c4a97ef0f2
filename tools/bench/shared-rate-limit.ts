/**
 * What sharing a rate limit on Redis costs per call where a slot is free: the same limiter
 * options (a rate far above what the loop reaches, so no call ever waits), once alone in
 * memory and once on a `RedisRateLimitStore` against a real `redis-server` started here (on a
 * free port, no persistence). A shared limiter reserves every slot in Redis: one round trip,
 * which calls in flight together share through ioredis's pipelining. Skipped, saying so,
 * without `redis-server` on PATH.
 */
import { performance } from 'node:perf_hooks';
import { SystemClock, RateLimiter } from '@toolshield/core/internal';
import { RedisRateLimitStore } from '@toolshield/redis';
import { RedisServer, redisServerAvailable } from '@toolshield/redis/testing';
import { Redis } from 'ioredis';
import { median, ratio } from './stats.js';

const CALLS = Number(process.env.BENCH_SHARED_RATE_CALLS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5) * 2 + 1;
/** Calls in flight at once in the concurrent rows. */
const CONCURRENT = 100;
const OPTIONS = { rate: 1e9, burst: 1e6 };

type Row = 'tryAcquire' | 'local' | 'shared' | 'ping' | 'localConcurrent' | 'sharedConcurrent';

/** The rows' Markdown, or a line saying why they were skipped. */
export async function runSharedRateLimit(log: (line: string) => void): Promise<string> {
  if (!redisServerAvailable) return 'Skipped the shared rate-limit rows: no redis-server on PATH.';
  log('shared rate limit: local vs on Redis ...');
  const server = await RedisServer.start();
  const connection = new Redis(server.url);
  const store = new RedisRateLimitStore({ connection, keyPrefix: 'bench:' });
  const clock = new SystemClock();
  const local = new RateLimiter('search-api', OPTIONS, clock);
  const shared = store.limiter('search-api', OPTIONS, clock);
  try {
    while (store.health().status !== 'shared')
      await new Promise((resolve) => setTimeout(resolve, 20));
    const timers: Record<Row, () => Promise<number>> = {
      tryAcquire: () => Promise.resolve(timeTryAcquire(local)),
      local: () => timeSequential(local),
      shared: () => timeSequential(shared),
      ping: () => timeSequential({ acquire: () => connection.ping().then(() => undefined) }),
      localConcurrent: () => timeConcurrent(local),
      sharedConcurrent: () => timeConcurrent(shared),
    };
    const rows = Object.keys(timers) as Row[];
    const perCall = Object.fromEntries(rows.map((row) => [row, [] as number[]])) as Record<
      Row,
      number[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of round % 2 === 0 ? rows : [...rows].reverse())
        perCall[row].push(await timers[row]());
    }
    if (store.health().status !== 'shared') throw new Error('The store left Redis during the run');
    const m = Object.fromEntries(rows.map((row) => [row, median(perCall[row])])) as Record<
      Row,
      number
    >;
    const line = (label: string, value: number, base: number) =>
      `| ${label} | ${value.toFixed(0)} | ${ratio(value / base)} |`;
    return [
      `Shared rate limit, a slot free for every call (${CALLS} calls × ${ROUNDS} rounds, ns per call, median):`,
      '',
      '| Limiter | ns/call | vs local `acquire()` |',
      '|---|---:|---:|',
      line('local, `tryAcquire()` (what the pipeline calls first)', m.tryAcquire, m.local),
      line('local, `await acquire()`, one call at a time', m.local, m.local),
      line('shared on Redis, `await acquire()`, one call at a time', m.shared, m.local),
      line('(for scale: one bare `PING` round trip to the same Redis)', m.ping, m.local),
      line(`local, ${CONCURRENT} calls at once`, m.localConcurrent, m.local),
      line(`shared on Redis, ${CONCURRENT} calls at once`, m.sharedConcurrent, m.local),
    ].join('\n');
  } finally {
    local.close(new Error('bench over'));
    shared.close(new Error('bench over'));
    await store.close();
    connection.disconnect();
    await server.stop();
  }
}

function timeTryAcquire(limiter: RateLimiter): number {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) if (!limiter.tryAcquire()) throw new Error('No free slot');
  return ((performance.now() - start) * 1e6) / CALLS;
}

async function timeSequential(limiter: Pick<RateLimiter, 'acquire'>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await limiter.acquire();
  return ((performance.now() - start) * 1e6) / CALLS;
}

async function timeConcurrent(limiter: RateLimiter): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i += CONCURRENT)
    await Promise.all(Array.from({ length: CONCURRENT }, () => limiter.acquire()));
  return ((performance.now() - start) * 1e6) / CALLS;
}
