/**
 * The hedging part of `bench:upstream`, as Markdown: the variants on the reference
 * upstream (p99 12× the median), then the goal's setting (after p90, at most 10 % extra) on
 * log-normal upstreams of several tails, each row beside the bound one hedge could reach
 * there (computed, and simulated on the same draws) and the same policy simulated in virtual
 * time (no HTTP, no timer lateness), with the machine's load average before and after.
 *
 * Environment: BENCH_HEDGING_CALLS (5,000), BENCH_HEDGING_ROUNDS (3), BENCH_HEDGING_TAILS
 * (10,15,20,30), BENCH_HEDGING_SIM_CALLS (50,000).
 */
import type { HedgingOptions } from '@toolshield/core';
import { loadavg } from 'node:os';
import {
  bestDelayMs,
  bestHedgedRatio,
  GOAL_VARIANT,
  HEDGING_VARIANTS,
  MEDIAN_MS,
  runHedging,
  type HedgingSummary,
  type HedgingVariant,
} from './hedging.js';
import { simulateHedging } from './hedging-simulation.js';

const REFERENCE_TAIL = 12;
const GOAL_RATIO = 0.5;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const times = (value: number) => `${value.toFixed(2)}×`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
const label = (variant: HedgingVariant) =>
  `after ${variant.delayMs}, at most ${pct(variant.maxExtraShare)} extra`;
const rounds = (run: HedgingSummary) =>
  `${times(run.p99Ratio)} (${run.p99Ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`;

/** Runs the hedging bench; returns its figures and its Markdown lines. */
export async function hedgingReport(
  log: (line: string) => void,
): Promise<{ results: Record<string, unknown>; lines: string[] }> {
  const calls = Number(process.env.BENCH_HEDGING_CALLS ?? 5_000);
  const roundCount = Number(process.env.BENCH_HEDGING_ROUNDS ?? 3);
  const simCalls = Number(process.env.BENCH_HEDGING_SIM_CALLS ?? 50_000);
  const tails = (process.env.BENCH_HEDGING_TAILS ?? '10,15,20,30').split(',').map(Number);
  const loadBefore = load();

  log(`hedging: p99 ${REFERENCE_TAIL}x ...`);
  const reference = await runHedging(calls, roundCount, REFERENCE_TAIL, HEDGING_VARIANTS);
  const byTail: { tail: number; run: { plain: HedgingSummary; hedged: HedgingSummary[] } }[] = [];
  for (const tail of tails) {
    log(`hedging: p99 ${tail}x ...`);
    byTail.push({ tail, run: await runHedging(calls, roundCount, tail, [GOAL_VARIANT]) });
  }
  const loadAfter = load();
  log('hedging: the same policies in virtual time ...');
  const simulated = async (tail: number, variant: HedgingOptions) =>
    (await simulateHedging(tail, simCalls, variant)).p99Ratio;
  const referenceSimulated: number[] = [];
  for (const variant of HEDGING_VARIANTS) {
    referenceSimulated.push(await simulated(REFERENCE_TAIL, variant));
  }
  const tailSimulated: number[] = [];
  /** One hedge after exactly the best fixed delay, on the same draws: the bound, sampled. */
  const idealSimulated: number[] = [];
  for (const tail of [REFERENCE_TAIL, ...tails]) {
    if (tail !== REFERENCE_TAIL) tailSimulated.push(await simulated(tail, GOAL_VARIANT));
    const delayMs = bestDelayMs(GOAL_VARIANT.maxExtraShare, tail);
    idealSimulated.push(await simulated(tail, { delayMs, maxExtraShare: 1 }));
  }

  const { plain } = reference;
  const lines = [
    '',
    `Hedging, ${calls} calls from 20 callers, log-normal upstream in its own thread (median ${MEDIAN_MS} ms, p99 ${REFERENCE_TAIL}×), median of ${roundCount} rounds (p99 against the same round's unhedged p99); load average ${loadBefore} before, ${loadAfter} after:`,
    '',
    `| | p50 | p99 | p99 ratio (each round) | extra requests | simulated p99 ratio (${simCalls.toLocaleString('en-US')} calls in virtual time) |`,
    '|---|---:|---:|---:|---:|---:|',
    `| no hedging | ${ms(plain.p50)} | ${ms(plain.p99)} | | ${pct(plain.extraShare)} | |`,
    ...HEDGING_VARIANTS.map((variant, i) => {
      const run = reference.hedged[i] as HedgingSummary;
      return `| hedged ${label(variant)} | ${ms(run.p50)} | ${ms(run.p99)} | ${rounds(run)} | ${pct(run.extraShare)} | ${times(referenceSimulated[i] as number)} |`;
    }),
    `| bound: one hedge after the best fixed delay within 10 % extra | | | ${times(bestHedgedRatio(0.1, REFERENCE_TAIL))} | 10 % | ${times(idealSimulated[0] as number)} |`,
    '',
    `The goal's setting (hedged ${label(GOAL_VARIANT)}) on heavier and lighter tails, same method; simulated: the same policy and callers in virtual time (${simCalls.toLocaleString('en-US')} calls, no HTTP, no timer lateness; p99 against the distribution's); bound: one hedge after the best fixed delay within 10 % extra, computed (and simulated):`,
    '',
    '| upstream p99 | unhedged p50 / p99 | hedged p99 | p99 ratio (each round) | extra requests | simulated | bound (simulated) | p99 ≤ 0.5× with ≤ 10 % extra |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...byTail.map(({ tail, run }, i) => {
      const hedged = run.hedged[0] as HedgingSummary;
      const met = hedged.p99Ratio <= GOAL_RATIO && hedged.extraShare <= 0.1;
      return `| ${tail}× median | ${ms(run.plain.p50)} / ${ms(run.plain.p99)} | ${ms(hedged.p99)} | ${rounds(hedged)} | ${pct(hedged.extraShare)} | ${times(tailSimulated[i] as number)} | ${times(bestHedgedRatio(0.1, tail))} (${times(idealSimulated[i + 1] as number)}) | ${met ? 'met' : 'not met'} |`;
    }),
  ];
  return {
    results: {
      reference: { ...reference, simulated: referenceSimulated, ideal: idealSimulated[0] },
      byTail: byTail.map(({ tail, run }, i) => ({
        tail,
        ...run,
        simulated: tailSimulated[i],
        ideal: idealSimulated[i + 1],
      })),
      load: { before: loadBefore, after: loadAfter },
    },
    lines,
  };
}
