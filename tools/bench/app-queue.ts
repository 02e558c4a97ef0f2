/**
 * `npm run bench:app`, second part: the sample agent on a run queue (BullMQ on a throwaway
 * redis-server, runs in PostgreSQL at BENCH_DATABASE_URL or TEST_DATABASE_URL; skipped, saying
 * so, without them). Two measures:
 *
 * - runs per second with 1, 2 and 3 instances (separate processes, every one API + worker,
 *   RUN_CONCURRENCY 4): `BENCH_QUEUE_RUNS` runs of `searches-20` (20 searches, 100 ms each at a
 *   shared fixture upstream) started round robin over the instances, each followed over SSE on
 *   the instance that took its POST, from the first POST to the last `run.finished`;
 * - the latency a queue adds before a run's first step: `BENCH_QUEUE_SAMPLES` runs of
 *   `calculator` one after another, from `run.started` (stamped by the API instance) to the
 *   run's next event (stamped by the worker), with the queue (3 instances, POSTs to the
 *   first) and without it (1 instance, runs in process), both on PostgreSQL, alternating.
 *
 * With the throughput goes the CPU time the instances spent per run (`/proc`), which says
 * whether the instances did the work, or waited for a CPU, on a machine shared with others.
 *
 * Prints Markdown and writes reports/bench/app-queue.json.
 */
import { RedisServer, redisServerAvailable } from '@toolshield/redis/testing';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServer, stopServer, workspace, type Server } from './app-server.js';
import { median, percentile, ratio } from './stats.js';

const RUNS = Number(process.env.BENCH_QUEUE_RUNS ?? 48);
const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 2);
const SAMPLES = Number(process.env.BENCH_QUEUE_SAMPLES ?? 100);
const DATABASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface StreamedEvent {
  readonly at: number;
  readonly data: { readonly type: string };
}

/** CPU time (user + system) a process has used so far, in ms (Linux `/proc`; NaN elsewhere). */
function cpuMs(server: Server): number {
  try {
    const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ');
    // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return (Number(fields?.[11]) + Number(fields?.[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** A fresh database on the server, and how to drop it. */
async function freshDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `toolshield_bench_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Starts a run and reads its events to the end. */
async function run(url: string, scenario: string): Promise<StreamedEvent[]> {
  const created = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'bench', scenario }),
  });
  const { id } = (await created.json()) as { id: string };
  const text = await (await fetch(`${url}/api/runs/${id}/events`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as StreamedEvent);
}

async function withCluster<T>(
  count: number,
  queued: boolean,
  redis: RedisServer,
  upstreamUrl: string,
  body: (instances: Server[]) => Promise<T>,
): Promise<T> {
  const database = await freshDatabase(DATABASE as string);
  if (queued) {
    await redis.kill();
    await redis.restart(); // empty
  }
  const env = (index: number) => ({
    DATABASE_URL: database.url,
    TOOLSHIELD_STORE: undefined,
    UPSTREAM_URL: upstreamUrl,
    RUN_CONCURRENCY: '4',
    INSTANCE_ID: `bench-${index + 1}`,
    ...(queued ? { REDIS_URL: redis.url } : { REDIS_URL: undefined }),
  });
  const instances = [await startServer(env(0))]; // migrates
  for (let index = 1; index < count; index++) instances.push(await startServer(env(index)));
  try {
    return await body(instances);
  } finally {
    await Promise.all(instances.map(stopServer));
    await database.drop();
  }
}

/**
 * Runs per second over `instances` (POSTs and streams round robin), and the CPU time the
 * instances spent per run.
 */
async function throughput(
  instances: readonly Server[],
  runs: number,
): Promise<{ runsPerSecond: number; cpuMsPerRun: number }> {
  const cpu = () => instances.reduce((sum, instance) => sum + cpuMs(instance), 0);
  const cpuBefore = cpu();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: runs }, (_, index) =>
      run((instances[index % instances.length] as Server).url, 'searches-20'),
    ),
  );
  const runsPerSecond = runs / ((performance.now() - started) / 1_000);
  return { runsPerSecond, cpuMsPerRun: (cpu() - cpuBefore) / runs };
}

/** ms from `run.started` to the run's next event. */
async function firstStepLatency(url: string): Promise<number> {
  const [started, next] = await run(url, 'calculator');
  return started && next ? next.at - started.at : Number.NaN;
}

if (!redisServerAvailable || !DATABASE) {
  log(
    'queue bench skipped: needs redis-server on PATH and PostgreSQL at BENCH_DATABASE_URL or TEST_DATABASE_URL',
  );
  process.exit(0);
}

log(
  `queue bench: ${RUNS} runs of searches-20 over 1, 2, 3 instances, ${ROUNDS} rounds; ${SAMPLES} sequential runs for the first-step latency; Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
const redis = await RedisServer.start();
const upstream = await startServer({}, 'dist/upstream/main.js');
await fetch(`${upstream.url}/__plan/search`, {
  method: 'PUT',
  body: JSON.stringify({ then: { kind: 'slow', delayMs: 100 } }),
});

const runsPerSecond: Record<number, number[]> = { 1: [], 2: [], 3: [] };
const cpuMsPerRun: Record<number, number[]> = { 1: [], 2: [], 3: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the sizes so drift on a shared machine hits each alike.
    for (const count of [1, 2, 3]) {
      const measured = await withCluster(count, true, redis, upstream.url, async (instances) => {
        await throughput(instances, 12); // warm-up: JIT, connections, the queue
        return throughput(instances, RUNS);
      });
      runsPerSecond[count]?.push(measured.runsPerSecond);
      cpuMsPerRun[count]?.push(measured.cpuMsPerRun);
      log(
        `  round ${round + 1}, ${count} instance(s): ${measured.runsPerSecond.toFixed(1)} runs/s, ${measured.cpuMsPerRun.toFixed(0)} ms CPU per run`,
      );
    }
  }
  // Side by side: a queued run, then one in process, and so on, so the load hits both alike.
  const latency = await withCluster(3, true, redis, upstream.url, ([queued]) =>
    withCluster(1, false, redis, upstream.url, async ([inProcess]) => {
      const samples = { queued: [] as number[], inProcess: [] as number[] };
      for (let index = 0; index < SAMPLES + 10; index++) {
        const queuedMs = await firstStepLatency((queued as Server).url);
        const inProcessMs = await firstStepLatency((inProcess as Server).url);
        if (index < 10) continue; // warm-up
        samples.queued.push(queuedMs);
        samples.inProcess.push(inProcessMs);
      }
      return samples;
    }),
  );

  const rate = (count: number) => median(runsPerSecond[count] ?? []);
  const cpuPerRun = (count: number) => median(cpuMsPerRun[count] ?? []);
  const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
  const queuedP99 = percentile(latency.queued, 99);
  const markdown = [
    `Node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, load average ${loadavg()[0]?.toFixed(1)} at the end`,
    `${RUNS} runs of \`searches-20\` (21 tool calls each, searches answered after 100 ms by a shared upstream), RUN_CONCURRENCY 4 per instance, median of ${ROUNDS} rounds after a warm-up`,
    '',
    '| instances | runs/s | rounds | scaling vs 1 | CPU per run (all instances) |',
    '|---:|---:|---|---:|---:|',
    ...[1, 2, 3].map(
      (count) =>
        `| ${count} | ${rate(count).toFixed(1)} | ${(runsPerSecond[count] ?? []).map((value) => value.toFixed(1)).join(', ')} | ${ratio(rate(count) / rate(1))} | ${cpuPerRun(count).toFixed(0)} ms |`,
    ),
    '',
    `\`run.started\` → the run's next event, ${SAMPLES} runs of each kind one after another, alternating (ms):`,
    '',
    '| runs | p50 | p99 | max |',
    '|---|---:|---:|---:|',
    `| queued (3 instances, BullMQ) | ${p(latency.queued, 50)} | ${p(latency.queued, 99)} | ${Math.max(...latency.queued).toFixed(1)} |`,
    `| in process (no REDIS_URL) | ${p(latency.inProcess, 50)} | ${p(latency.inProcess, 99)} | ${Math.max(...latency.inProcess).toFixed(1)} |`,
    '',
    `p99 with the queue: ${queuedP99.toFixed(1)} ms (goal ≤ 100 ms: ${queuedP99 <= 100 ? 'met' : 'NOT met'})`,
  ].join('\n');
  process.stdout.write(`${markdown}\n`);
  const reports = join(workspace, 'reports', 'bench');
  mkdirSync(reports, { recursive: true });
  writeFileSync(
    join(reports, 'app-queue.json'),
    `${JSON.stringify({ runs: RUNS, rounds: ROUNDS, samples: SAMPLES, runsPerSecond, cpuMsPerRun, latency }, null, 2)}\n`,
  );
  log(`wrote ${join(reports, 'app-queue.json')}`);
} finally {
  await stopServer(upstream);
  await redis.stop();
}
