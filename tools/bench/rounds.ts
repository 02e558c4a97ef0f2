/**
 * Times benchmark rows side by side in one process: each row's task runs {@link BATCH}
 * sequential awaited calls per sample (so sub-µs rows are above the timer's resolution);
 * tinybench warms up and samples for {@link TIME_MS} per row; the whole set of rows runs
 * {@link ROUNDS} times, each round in a rotated order, so drift and the noise of a small
 * machine spread over all rows. Ratios are taken within each round, then the median over rounds.
 */
import { Bench } from 'tinybench';
import { max, median, min, us } from './stats.js';

export const BATCH = Number(process.env.BENCH_BATCH ?? 50);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 500);

/** One row: a call that the benchmark repeats. */
export interface Row {
  readonly id: string;
  readonly label: string;
  readonly once: () => Promise<unknown>;
}

/** One row's timings. */
export interface RowResult {
  readonly id: string;
  readonly label: string;
  /** Per call, µs: median over rounds of the round medians. */
  readonly p50: number;
  readonly p50Min: number;
  readonly p50Max: number;
  /** Per call, µs: median over rounds of the p99 of batch means. */
  readonly p99: number;
  readonly rounds: number[];
}

/** The rows' timings, and each row's ratio to a reference row (median over rounds). */
export interface TimedRows {
  readonly results: RowResult[];
  readonly ratioTo: (reference: string) => Record<string, number>;
}

/** Times `rows` in {@link ROUNDS} interleaved rounds. */
export async function timeRows(
  rows: readonly Row[],
  log: (line: string) => void,
): Promise<TimedRows> {
  const perRound = new Map<string, { p50: number[]; p99: number[] }>(
    rows.map((r) => [r.id, { p50: [], p99: [] }]),
  );
  const roundsOf = (id: string): { p50: number[]; p99: number[] } => {
    const entry = perRound.get(id);
    if (!entry) throw new Error(`Unknown row ${id}`);
    return entry;
  };
  for (let round = 0; round < ROUNDS; round++) {
    const order = rows.map((_, i) => rows[(i + round * 3) % rows.length]);
    const bench = new Bench({ time: TIME_MS, warmupTime: 200, iterations: 50, throws: true });
    for (const row of order) {
      const once = row.once;
      bench.add(row.id, async () => {
        for (let i = 0; i < BATCH; i++) await once();
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
      const entry = roundsOf(task.name);
      entry.p50.push((result.latency.p50 * 1000) / BATCH);
      entry.p99.push((result.latency.p99 * 1000) / BATCH);
    }
    log(
      `round ${round + 1}/${ROUNDS}: ${rows.map((r) => `${r.id} ${us(roundsOf(r.id).p50[round])}`).join(', ')}`,
    );
  }

  const results: RowResult[] = rows.map((row) => {
    const { p50, p99 } = roundsOf(row.id);
    return {
      id: row.id,
      label: row.label,
      p50: median(p50),
      p50Min: min(p50),
      p50Max: max(p50),
      p99: median(p99),
      rounds: p50,
    };
  });
  const ratioTo = (reference: string): Record<string, number> => {
    const ref = roundsOf(reference).p50;
    return Object.fromEntries(
      rows.map((row) => [row.id, median(roundsOf(row.id).p50.map((v, i) => v / ref[i]))]),
    );
  };
  return { results, ratioTo };
}
