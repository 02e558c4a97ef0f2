/**
 * The hedging bench's policy without the machine: the same callers and `Hedger` in virtual
 * time against log-normal answer times of the same distribution (from a seeded generator),
 * with no HTTP, no event-loop lag and no timer lateness. Between the computed bound and the
 * measured rows it tells what the policy itself costs (its delay estimated from recent calls,
 * its budget) from what the machine adds.
 */
import { sleep, type HedgingOptions } from '@toolshield/core';
import { Hedger } from '@toolshield/core/internal';
import { VirtualClock } from '@toolshield/core/testing';
import { seeded } from '../seeded-random.js';
import { Z99 } from './heavy-tailed-upstream.js';
import { CALLERS, MEDIAN_MS, percentile } from './hedging.js';

/** Log-normal answer times: median `medianMs`, p99 `tailRatio` × the median. */
function logNormal(medianMs: number, tailRatio: number, seed: number): () => number {
  const random = seeded(seed);
  const sigma = Math.log(tailRatio) / Z99;
  return () => {
    // Box–Muller; 1 - u keeps the logarithm's argument in (0, 1].
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return medianMs * Math.exp(sigma * normal);
  };
}

export interface SimulatedHedging {
  readonly p99: number;
  /** The p99 against the upstream's own p99 (`tailRatio` × the median). */
  readonly p99Ratio: number;
  readonly extraShare: number;
}

/**
 * The bench's callers and upstream (median 20 ms, p99 `tailRatio` × that) in virtual time:
 * `calls` calls with `hedging`, answer times from a seeded generator. The p99 is compared with
 * the distribution's own p99 rather than with a sampled one, whose error (about 2 % at 50,000
 * calls) would blur the comparison with the computed bound.
 */
export async function simulateHedging(
  tailRatio: number,
  calls: number,
  hedging: HedgingOptions,
  seed = 1,
): Promise<SimulatedHedging> {
  const answer = logNormal(MEDIAN_MS, tailRatio, seed);
  const clock = new VirtualClock({ maxTimersPerRun: 100 * calls });
  const hedger = new Hedger(hedging, clock);
  const durations: number[] = [];
  let requests = 0;
  const request = (signal: AbortSignal) => {
    requests++;
    return sleep(clock, answer(), signal);
  };
  let remaining = calls;
  const work = Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (remaining > 0) {
        remaining--;
        const started = clock.now();
        await hedger.run(request);
        durations.push(clock.now() - started);
      }
    }),
  );
  await clock.runUntilSettled(work);
  const p99 = percentile(
    durations.sort((a, b) => a - b),
    0.99,
  );
  return { p99, p99Ratio: p99 / (MEDIAN_MS * tailRatio), extraShare: requests / calls - 1 };
}
