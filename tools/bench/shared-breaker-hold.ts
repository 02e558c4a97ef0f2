/**
 * What the hold after a failure costs on a shared breaker (ADR 0022): a closed breaker whose
 * calls alternate failure and success (a flaky upstream it never opens on), timing the success
 * right after each failure, once in a plain registry and once on a `RedisBreakerStore` against
 * a real `redis-server` started here, where that call waits until the failure is in the
 * shared window. Skipped, saying so, without `redis-server` on PATH.
 */
import { performance } from 'node:perf_hooks';
import type { ToolCircuitBreaker } from '@toolshield/core/internal';
import { redisServerAvailable } from '@toolshield/redis/testing';
import { measureLocalAndShared } from './local-and-shared-breakers.js';
import { median, ratio, us } from './stats.js';

const PAIRS = Number(process.env.BENCH_HOLD_PAIRS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5) * 2 + 1;
const ok = (): Promise<number> => Promise.resolve(1);
const fail = (): Promise<never> => Promise.reject(new Error('flaky'));

/** The rows' Markdown, or a line saying why they were skipped. */
export async function runSharedBreakerHold(log: (line: string) => void): Promise<string> {
  if (!redisServerAvailable)
    return 'Skipped the shared breaker hold rows: no redis-server on PATH.';
  log('shared breaker: the call after a failure, local vs on Redis ...');
  // Never opens on alternating outcomes: the ratio stays at 50 %, the failure run at 1.
  const { local, shared } = await measureLocalAndShared(
    'bench-hold:',
    { errorThresholdPercentage: 99 },
    ROUNDS,
    timeAfterFailure,
  );
  return [
    `Shared breaker, the call right after a failure (${PAIRS} failure/success pairs × ${ROUNDS} rounds, µs per call, median of round medians):`,
    '',
    '| Breaker | µs/call | vs local |',
    '|---|---:|---:|',
    `| local (\`CircuitBreakerRegistry\`) | ${us(local)} | 1.00× |`,
    `| shared on Redis (\`RedisBreakerStore\`), held for the failure's round trip | ${us(shared)} | ${ratio(shared / local)} |`,
  ].join('\n');
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
