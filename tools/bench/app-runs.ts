/**
 * `npm run bench:app`: the sample agent's HTTP service under load. 50 concurrent runs of the
 * `searches-20` scenario (20 `web_search` calls to the fixture upstream over HTTP, 100 ms each, in one
 * model turn, then `attempt_completion`),
 * each followed over SSE, against the built server (`apps/sample-agent/dist/serve.js`) as a
 * child process: once with runs kept in memory, once in SQLite. Reports throughput (tool
 * calls per second, first POST to last `run.finished`), the SQLite / memory ratio, and the
 * delay from a tool event (its `at`, the server's clock) to its arrival at the SSE client
 * (live events only: those emitted after the client's stream opened; replays are not counted).
 * Prints Markdown and writes reports/bench/app.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stopServer, workspace } from './app-server.js';
import { median, percentile, ratio } from './stats.js';

const RUNS = Number(process.env.BENCH_APP_RUNS ?? 50);
const ROUNDS = Number(process.env.BENCH_APP_ROUNDS ?? 3);
const SCENARIO = 'searches-20';
const TOOL_EVENTS = new Set([
  'call.started',
  'attempt.failed',
  'retry.scheduled',
  'call.succeeded',
  'call.failed',
]);

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Starts one run and reads its events to the end; returns each tool event's delivery delay. */
async function oneRun(url: string): Promise<{ calls: number; delays: number[] }> {
  const created = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'bench', scenario: SCENARIO }),
  });
  const { id } = (await created.json()) as { id: string };
  const response = await fetch(`${url}/api/runs/${id}/events`);
  // Events from before the stream opened are replays, not live deliveries: not measured.
  const connectedAt = Date.now();
  const delays: number[] = [];
  let calls = 0;
  let pending = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    const arrived = Date.now(); // the server stamps events with Date.now() too
    pending += decoder.decode(chunk, { stream: true });
    const blocks = pending.split('\n\n');
    pending = blocks.pop() ?? '';
    for (const block of blocks) {
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const event = JSON.parse(data.slice(6)) as { at: number; data: { type: string } };
      if (TOOL_EVENTS.has(event.data.type) && event.at >= connectedAt)
        delays.push(arrived - event.at);
      if (event.data.type === 'call.started') calls += 1;
    }
  }
  return { calls, delays };
}

/** 50 runs at once; tool calls per second and every delivery delay. */
async function round(url: string): Promise<{ callsPerSecond: number; delays: number[] }> {
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: RUNS }, () => oneRun(url)));
  const seconds = (performance.now() - started) / 1_000;
  const calls = results.reduce((sum, result) => sum + result.calls, 0);
  return { callsPerSecond: calls / seconds, delays: results.flatMap((result) => result.delays) };
}

const modes = {
  memory: () => ({ env: { TOOLSHIELD_STORE: 'memory' }, cleanup: () => undefined }),
  sqlite: () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolshield-bench-'));
    return {
      env: { TOOLSHIELD_DATA_DIR: dir },
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
} as const;

type Mode = keyof typeof modes;
const results: Record<Mode, { callsPerSecond: number[]; delays: number[] }> = {
  memory: { callsPerSecond: [], delays: [] },
  sqlite: { callsPerSecond: [], delays: [] },
};

log(
  `app bench: ${RUNS} concurrent runs of ${SCENARIO}, ${ROUNDS} rounds per store, Node ${process.version}, ${cpus().length} CPUs`,
);
for (let index = 0; index < ROUNDS; index++) {
  // Alternate the stores so drift on a shared machine hits both alike.
  for (const mode of Object.keys(modes) as Mode[]) {
    const { env, cleanup } = modes[mode]();
    const server = await startServer(env);
    await round(server.url); // warm-up: JIT, connections, SQLite file
    const measured = await round(server.url);
    await stopServer(server);
    cleanup();
    results[mode].callsPerSecond.push(measured.callsPerSecond);
    results[mode].delays.push(...measured.delays);
    log(`  round ${index + 1} ${mode}: ${measured.callsPerSecond.toFixed(0)} calls/s`);
  }
}

const throughput = (mode: Mode) => median(results[mode].callsPerSecond);
const throughputRatio = throughput('sqlite') / throughput('memory');
const p = (mode: Mode, q: number) => percentile(results[mode].delays, q);
const p99 = p('sqlite', 99);
const row = (mode: Mode) =>
  `| ${mode} | ${throughput(mode).toFixed(0)} | ${p(mode, 50).toFixed(1)} | ${p(mode, 99).toFixed(1)} | ${results[mode].delays.length} |`;

const markdown = [
  `Node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
  `${RUNS} concurrent runs of \`${SCENARIO}\` (21 tool calls each, the searches answered after 100 ms) over HTTP, each followed over SSE; median of ${ROUNDS} rounds after a warm-up round`,
  '',
  '| store | tool calls/s | tool event → SSE client p50 (ms) | p99 (ms) | events measured |',
  '|---|---:|---:|---:|---:|',
  row('memory'),
  row('sqlite'),
  '',
  `Throughput SQLite / memory: ${ratio(throughputRatio)} (goal ≥ 0.80×: ${throughputRatio >= 0.8 ? 'met' : 'NOT met'})`,
  `p99 tool event → SSE client with SQLite: ${p99.toFixed(1)} ms (goal ≤ 50 ms: ${p99 <= 50 ? 'met' : 'NOT met'})`,
].join('\n');

process.stdout.write(`${markdown}\n`);
const reports = join(workspace, 'reports', 'bench');
mkdirSync(reports, { recursive: true });
writeFileSync(
  join(reports, 'app.json'),
  `${JSON.stringify({ runs: RUNS, rounds: ROUNDS, scenario: SCENARIO, throughputRatio, p99, results: { memory: { callsPerSecond: results.memory.callsPerSecond }, sqlite: { callsPerSecond: results.sqlite.callsPerSecond } } }, null, 2)}\n`,
);
log(`wrote ${join(reports, 'app.json')}`);
