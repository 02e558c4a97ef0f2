/**
 * What sharing a breaker on Redis adds per call on the success path: the same breaker options,
 * once in a plain registry and once in a registry on a `RedisBreakerStore` against a real
 * `redis-server` started here (on a free port, no persistence), with the counts it sends in the
 * background. Skipped, saying so, without `redis-server` on PATH.
 */
import { performance } from 'node:perf_hooks';
import type { ToolCircuitBreaker } from '@toolshield/core/internal';
import { redisServerAvailable } from '@toolshield/redis/testing';
import { measureLocalAndShared } from './local-and-shared-breakers.js';
import { ratio } from './stats.js';

const CALLS = Number(process.env.BENCH_SHARED_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5) * 2 + 1;
const ok = (): Promise<number> => Promise.resolve(1);

/** The rows' Markdown, or a line saying why they were skipped. */
export async function runSharedBreaker(log: (line: string) => void): Promise<string> {
  if (!redisServerAvailable) return 'Skipped the shared breaker rows: no redis-server on PATH.';
  log('shared breaker: local vs on Redis ...');
  const { local: l, shared: s } = await measureLocalAndShared('bench:', {}, ROUNDS, timeCalls);
  return [
    `Shared breaker, success path (${CALLS} calls × ${ROUNDS} rounds, ns per call, median):`,
    '',
    '| Breaker | ns/call | vs local |',
    '|---|---:|---:|',
    `| local (\`CircuitBreakerRegistry\`) | ${l.toFixed(0)} | 1.00× |`,
    `| shared on Redis (\`RedisBreakerStore\`) | ${s.toFixed(0)} | ${ratio(s / l)} |`,
    '',
    `Target: shared ≤ 1.20× local: ${s / l <= 1.2 ? 'met' : 'NOT met'}`,
  ].join('\n');
}

async function timeCalls(breaker: ToolCircuitBreaker): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await breaker.execute(ok);
  return ((performance.now() - start) * 1e6) / CALLS;
}
