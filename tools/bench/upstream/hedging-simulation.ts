/**
 * The hedging bench's policy without the machine: the same callers, calls and `Hedger` in
 * virtual time against the same log-normal answer times (drawn from a seeded generator), with
 * no HTTP, no event-loop lag and no timer lateness. Between the computed bound and the
 * measured rows it tells what the policy itself costs (its delay estimated from recent calls,
 * its budget) from what the machine adds.
 */
import { Hedger, VirtualClock, sleep, type HedgingOptions } from '@toolshield/core';
import { Z99 } from './heavy-tailed-upstream.js';
import { CALLERS, MEDIAN_MS, percentile } from './hedging.js';

/** A seeded uniform generator on (0, 1] (mulberry32), so a simulation is repeatable. */
function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4_294_967_296;
  };
}

/** Log-normal answer times: median `medianMs`, p99 `tailRatio` × the median. */
function logNormal(medianMs: number, tailRatio: number, seed: number): () => number {
  const random = uniform(seed);
  const sigma = Math.log(tailRatio) / Z99;
  return () => {
    const normal = Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
    return medianMs * Math.exp(sigma * normal);
  };
}

export interface SimulatedHedging {
  readonly p99: number;
  /** The p99 against the unhedged p99 of the same answer times. */
  readonly p99Ratio: number;
  readonly extraShare: number;
}

/** `calls` calls from the bench's callers, durations sorted; `hedging` undefined: no hedging. */
async function simulate(
  answer: () => number,
  calls: number,
  hedging: HedgingOptions | undefined,
): Promise<{ durations: number[]; requests: number }> {
  const clock = new VirtualClock({ maxTimersPerRun: 100 * calls });
  const hedger = hedging && new Hedger(hedging, clock);
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
        await (hedger ? hedger.run(request) : request(new AbortController().signal));
        durations.push(clock.now() - started);
      }
    }),
  );
  await clock.runUntilSettled(work);
  return { durations: durations.sort((a, b) => a - b), requests };
}

/**
 * The bench's callers and upstream (median 20 ms, p99 `tailRatio` × that) in virtual time,
 * `calls` calls without and with `hedging` on the same answer times (one seed; each run has
 * its own generator, since a hedge takes a draw): the hedged p99, its ratio to the unhedged
 * p99 of the same draws, and the extra requests.
 */
export async function simulateHedging(
  tailRatio: number,
  calls: number,
  hedging: HedgingOptions,
  seed = 1,
): Promise<SimulatedHedging> {
  const plain = await simulate(logNormal(MEDIAN_MS, tailRatio, seed), calls, undefined);
  const hedged = await simulate(logNormal(MEDIAN_MS, tailRatio, seed), calls, hedging);
  const p99 = percentile(hedged.durations, 0.99);
  return {
    p99,
    p99Ratio: p99 / percentile(plain.durations, 0.99),
    extraShare: hedged.requests / calls - 1,
  };
}
