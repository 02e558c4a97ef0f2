/**
 * Hedging against a heavy-tailed upstream: the same number of calls without hedging and with
 * toolshield's `Hedger` (a second request after the observed p95 or p90, within a budget of
 * extra requests), p50/p99 latency and the extra requests the upstream saw, for log-normal
 * upstreams of several tails (p99 = `tailRatio` × the median). Also the best p99 any policy
 * of one hedge after a fixed delay could reach within the budget, from the distribution
 * itself: the bound the measured rows are held to.
 */
import { type HedgingPercentile } from '@toolshield/core';
import { SystemClock, Hedger } from '@toolshield/core/internal';
import { Agent, get } from 'node:http';
import { startHeavyTailedUpstream, Z99 } from './heavy-tailed-upstream.js';

export const CALLERS = 20;
export const MEDIAN_MS = 20;

export interface HedgingRun {
  readonly p50: number;
  readonly p99: number;
  readonly extraShare: number;
}

/** A hedged configuration of the bench. */
export interface HedgingVariant {
  readonly delayMs: HedgingPercentile;
  readonly maxExtraShare: number;
}

/**
 * One GET on a keep-alive agent with no socket limit: `http` rather than `fetch`, whose
 * per-request work on the client's one thread was a large share of what a hedge waited for
 * on this 2-vCPU machine (both runs, hedged or not, use it).
 */
function getText(url: string, agent: Agent, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, signal }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The `q` quantile of sorted durations. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function run(calls: number, tailRatio: number, hedger?: Hedger): Promise<HedgingRun> {
  const upstream = await startHeavyTailedUpstream(MEDIAN_MS, tailRatio);
  const durations: number[] = [];
  const agent = new Agent({ keepAlive: true });
  const get = (signal: AbortSignal) => getText(upstream.url, agent, signal);
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
  const { received } = await upstream.stats();
  agent.destroy();
  await upstream.close();
  durations.sort((a, b) => a - b);
  return {
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    extraShare: received / calls - 1,
  };
}

/** P(X > x) of the upstream's log-normal answer time. */
function survival(x: number, tailRatio: number): number {
  if (x <= 0) return 1;
  const z = Math.log(x / MEDIAN_MS) / (Math.log(tailRatio) / Z99);
  return 0.5 * erfc(z / Math.SQRT2);
}

/** erfc, Abramowitz–Stegun 7.1.26 (error below 1.5e-7). */
function erfc(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const value = poly * Math.exp(-x * x);
  return x >= 0 ? value : 2 - value;
}

/** The p99 of min(X1, d + X2) for two independent answer times. */
function hedgedP99(delayMs: number, tailRatio: number): number {
  let [low, high] = [delayMs, 100_000];
  for (let i = 0; i < 60; i++) {
    const t = (low + high) / 2;
    if (survival(t, tailRatio) * survival(t - delayMs, tailRatio) > 0.01) low = t;
    else high = t;
  }
  return high;
}

/** The delay after which `budget` of the answers are still to come (the best fixed delay). */
export function bestDelayMs(budget: number, tailRatio: number): number {
  let [low, high] = [0, 100_000];
  for (let i = 0; i < 60; i++) {
    const d = (low + high) / 2;
    if (survival(d, tailRatio) > budget) low = d;
    else high = d;
  }
  return high;
}

/**
 * The lowest p99 ratio one hedge after a fixed delay can reach with at most `budget` extra
 * requests (the delay whose tail share is the budget), against the unhedged p99.
 */
export function bestHedgedRatio(budget: number, tailRatio: number): number {
  return hedgedP99(bestDelayMs(budget, tailRatio), tailRatio) / (MEDIAN_MS * tailRatio);
}

/** The variants compared on the reference upstream (p99 12× the median). */
export const HEDGING_VARIANTS: readonly HedgingVariant[] = [
  { delayMs: 'p95', maxExtraShare: 0.1 },
  { delayMs: 'p90', maxExtraShare: 0.1 },
];

/** The setting held to the goal (p99 halved with at most 10 % extra) on every tail. */
export const GOAL_VARIANT: HedgingVariant = { delayMs: 'p90', maxExtraShare: 0.1 };

/** One variant's figures over the rounds: medians, and its p99 against the same round's unhedged p99. */
export interface HedgingSummary extends HedgingRun {
  readonly p99Ratio: number;
  readonly p99Ratios: readonly number[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

function summarize(runs: readonly HedgingRun[], plains: readonly HedgingRun[]): HedgingSummary {
  const p99Ratios = runs.map((run, i) => run.p99 / (plains[i] as HedgingRun).p99);
  return {
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    extraShare: median(runs.map((run) => run.extraShare)),
    p99Ratio: median(p99Ratios),
    p99Ratios,
  };
}

/**
 * `rounds` rounds of: `calls` calls unhedged, then with each variant, a fresh upstream (p99
 * `tailRatio` × the median) for each run. Each hedged p99 is compared with the unhedged p99 of
 * its own round, so a spell of load on the machine weighs on both; the medians over the
 * rounds are reported.
 */
export async function runHedging(
  calls: number,
  rounds: number,
  tailRatio: number,
  variants: readonly HedgingVariant[],
): Promise<{ plain: HedgingSummary; hedged: HedgingSummary[] }> {
  const plains: HedgingRun[] = [];
  const hedged: HedgingRun[][] = variants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    plains.push(await run(calls, tailRatio));
    for (const [i, variant] of variants.entries()) {
      hedged[i]?.push(await run(calls, tailRatio, new Hedger(variant, new SystemClock())));
    }
  }
  return {
    plain: summarize(plains, plains),
    hedged: hedged.map((runs) => summarize(runs, plains)),
  };
}
