/**
 * Hedging against a heavy-tailed upstream: the same calls without hedging and with
 * toolshield's `Hedger` (a second request after the observed p95, or p90, at most 10 % extra),
 * p50/p99 latency and the extra requests the upstream saw.
 */
import { Hedger, SystemClock } from '@toolshield/core';
import { startHeavyTailedUpstream } from './heavy-tailed-upstream.js';

const CALLERS = 20;

export interface HedgingRun {
  readonly p50: number;
  readonly p99: number;
  readonly extraShare: number;
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function run(calls: number, hedger?: Hedger): Promise<HedgingRun> {
  const upstream = await startHeavyTailedUpstream();
  const durations: number[] = [];
  const get = async (signal: AbortSignal) => {
    const response = await fetch(upstream.url, { signal });
    return response.text();
  };
  let remaining = calls;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (remaining > 0) {
        remaining--;
        const started = performance.now();
        await (hedger ? hedger.run(get) : get(new AbortController().signal));
        durations.push(performance.now() - started);
      }
    }),
  );
  await upstream.close();
  durations.sort((a, b) => a - b);
  return {
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    extraShare: upstream.stats.received / calls - 1,
  };
}

export async function runHedging(
  calls: number,
): Promise<{ plain: HedgingRun; hedged: HedgingRun; hedgedP90: HedgingRun }> {
  const plain = await run(calls);
  const hedged = await run(
    calls,
    new Hedger({ delayMs: 'p95', maxExtraShare: 0.1 }, new SystemClock()),
  );
  const hedgedP90 = await run(
    calls,
    new Hedger({ delayMs: 'p90', maxExtraShare: 0.1 }, new SystemClock()),
  );
  return { plain, hedged, hedgedP90 };
}
