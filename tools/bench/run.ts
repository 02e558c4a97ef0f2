/**
 * `npm run bench`: the overhead table (one process, rows side by side), then memory per tool
 * (fresh processes with --expose-gc). Prints Markdown and writes reports/bench/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adaptersTable, runAdapters } from './adapters.js';
import { failurePathsTable, runFailurePaths } from './failure-paths.js';
import { runDtoValidationBench } from './dto-validation.js';
import { hedgingOverheadTable, runHedgingOverhead } from './hedging-overhead.js';
import { approvalOverheadTable, runApprovalOverhead } from './approval-overhead.js';
import { inFlightTable, runInFlight } from './in-flight.js';
import type { MemorySample } from './memory.js';
import { runMcpBench } from './mcp.js';
import { overheadTable, runOverhead } from './overhead.js';
import { runRedactionBench } from './redaction.js';
import { resultCacheTable, runResultCache } from './result-cache.js';
import { runRetryBudgetBench } from './retry-budget.js';
import { runSharedBreaker } from './shared-breaker.js';
import { runSharedBreakerHold } from './shared-breaker-hold.js';
import { runSharedRateLimit } from './shared-rate-limit.js';
import { bytes, max, median, min, ratio, us } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const workspace = resolve(here, '../../..');
const MEMORY_REPEATS = Number(process.env.BENCH_MEMORY_REPEATS ?? 3);
const SMALL = 10;
const LARGE = 1010;

const log = (line: string): void => void process.stderr.write(`${line}\n`);

function memorySample(count: number): MemorySample {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', join(here, 'memory.js'), String(count)],
    {
      encoding: 'utf8',
    },
  );
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as MemorySample;
}

const machine = {
  node: process.version,
  v8: process.versions.v8,
  platform: `${process.platform} ${process.arch}`,
  cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
  memory: bytes(totalmem()),
};
log(`toolshield bench on Node ${machine.node}, ${machine.cpu}`);

const overhead = await runOverhead(log);
const failurePaths = await runFailurePaths(log);
const dtoValidation = await runDtoValidationBench(log);
const hedgingOverhead = await runHedgingOverhead(log);
const approvalOverhead = await runApprovalOverhead(log);
const adapters = await runAdapters(log);
const redaction = await runRedactionBench(log);
const sharedBreaker = await runSharedBreaker(log);
const sharedBreakerHold = await runSharedBreakerHold(log);
const sharedRateLimit = await runSharedRateLimit(log);
const retryBudget = await runRetryBudgetBench(log);
const resultCache = await runResultCache(log);

log('memory: fresh processes with --expose-gc ...');
const perTool: { registered: number[]; withBreaker: number[]; breaker: number[] } = {
  registered: [],
  withBreaker: [],
  breaker: [],
};
const samples: MemorySample[] = [];
for (let i = 0; i < MEMORY_REPEATS; i++) {
  const small = memorySample(SMALL);
  const large = memorySample(LARGE);
  samples.push(small, large);
  if (large.breakers !== LARGE || small.breakers !== SMALL)
    throw new Error('Not every tool created its breaker');
  const n = LARGE - SMALL;
  const registered = (large.registered - large.before - (small.registered - small.before)) / n;
  const withBreaker = (large.withBreakers - large.before - (small.withBreakers - small.before)) / n;
  perTool.registered.push(registered);
  perTool.withBreaker.push(withBreaker);
  perTool.breaker.push(withBreaker - registered);
}

log('mcp: round trips through the server module and the bare SDK servers ...');
const mcp = await runMcpBench(log);
const inFlight = runInFlight(log);

const p50Of = (id: string): number => overhead.rows.find((row) => row.id === id)?.p50 ?? Number.NaN;
const targets = {
  nest: overhead.ratios.nest['ts-json'],
  cockatiel: overhead.ratios.cockatiel['ts-json'],
  scaling: overhead.ratios['scale-10']['scale-1000'],
  scalingHot: overhead.ratios['scale-10']['scale-1000-hot10'],
};
const memoryLine = (label: string, values: number[]) =>
  `| ${label} | ${bytes(median(values))} | ${bytes(min(values))}–${bytes(max(values))} |`;

const markdown = [
  `Node ${machine.node} (V8 ${machine.v8}), ${machine.platform}, ${machine.cpu}, ${machine.memory} RAM`,
  `${overhead.rounds} rounds × ${overhead.timeMs} ms per row, ${overhead.batch} calls per sample`,
  '',
  overheadTable(overhead),
  '',
  ...Object.entries(overhead.skipped).map(([row, why]) => `Skipped ${row}: ${why}`),
  '',
  `Bounds (JSON-string args row): ${ratio(targets.nest)} the bare Nest call (≤ 2.00×: ${targets.nest <= 2 ? 'met' : 'NOT met'}), ${ratio(targets.cockatiel)} cockatiel's retry+breaker+timeout (≤ 1.00×: ${targets.cockatiel <= 1 ? 'met' : 'NOT met'})`,
  `Scaling: 1,000-tool / 10-tool app = ${ratio(targets.scaling)} (${us(p50Of('scale-1000'))} vs ${us(p50Of('scale-10'))} µs/call)`,
  `Scaling, same 10 tools called: 1,000-tool / 10-tool app = ${ratio(targets.scalingHot)} (${us(p50Of('scale-1000-hot10'))} vs ${us(p50Of('scale-10'))} µs/call)`,
  '',
  failurePathsTable(failurePaths),
  '',
  dtoValidation.table,
  '',
  hedgingOverheadTable(hedgingOverhead),
  '',
  approvalOverheadTable(approvalOverhead),
  '',
  `Memory per tool (${LARGE} vs ${SMALL} tools, ${MEMORY_REPEATS} runs, heap after forced GC):`,
  '',
  '| Per tool | median | range |',
  '|---|---:|---:|',
  memoryLine('registered (pipeline built, no breaker yet)', perTool.registered),
  memoryLine('registered + breaker created by one call', perTool.withBreaker),
  memoryLine('of which the breaker', perTool.breaker),
  '',
  'Inside each agent framework (one tool call through it):',
  '',
  adaptersTable(adapters),
  '',
  mcp.markdown,
  '',
  redaction.table,
  '',
  inFlightTable(inFlight),
  '',
  sharedBreaker,
  '',
  sharedBreakerHold,
  '',
  sharedRateLimit,
  '',
  retryBudget,
  '',
  resultCacheTable(resultCache),
].join('\n');

process.stdout.write(`${markdown}\n`);
const reports = join(workspace, 'reports', 'bench');
mkdirSync(reports, { recursive: true });
writeFileSync(
  join(reports, 'latest.json'),
  `${JSON.stringify({ machine, overhead, failurePaths, adapters, dtoValidation: dtoValidation.rows, redaction: redaction.rows, memory: { small: SMALL, large: LARGE, perTool, samples }, inFlight, targets, mcp: mcp.rows }, null, 2)}\n`,
);
log(`wrote ${join(reports, 'latest.json')}`);
