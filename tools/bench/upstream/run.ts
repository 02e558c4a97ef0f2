/**
 * `npm run bench:upstream`: toolshield against misbehaving upstreams over real HTTP on
 * 127.0.0.1, side by side with the peers in one run.
 *
 * Rate limits: clients that are not told an upstream's limit (limited-upstream.ts, clients.ts).
 *
 * 1. Steady: 1,000 calls from 20 concurrent callers against a 50/s limit (ideal: 20 s, no 429),
 *    once against each kind of upstream.
 * 2. Changing: 20 callers for 30 s while the limit moves 50 → 20 → 80 per second every 10 s
 *    (token-bucket upstream): how long each client takes to settle at each new rate.
 *
 * Hedging: 5,000 calls from 20 callers against log-normal upstreams (p99 12x the median, then
 * 10x, 15x, 20x, 30x) in a worker thread, without and with hedging (hedging-report.ts).
 *
 * Retries: 100 callers against an upstream that dies; requests it receives per call made in
 * the 10 s after, with and without the retry budget, beside cockatiel and the AWS SDK's
 * standard retry strategy (retry-amplification.ts).
 *
 * `node tools/dist/bench/upstream/run.js [steady|changing|hedging|retries ...]` runs only the parts named.
 *
 * Prints Markdown and writes reports/bench/upstream.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLIENTS, type Answer, type Client } from './clients.js';
import { hedgingReport } from './hedging-report.js';
import { amplificationReport } from './retry-amplification.js';
import { startLimitedUpstream, type UpstreamMode } from './limited-upstream.js';

const CALLERS = 20;
const CALLS = Number(process.env.BENCH_RATE_LIMIT_CALLS ?? 1_000);
const LIMIT = 50;
const PHASE_MS = 10_000;
const PHASES = [50, 20, 80];
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const parts = process.argv.slice(2);
const runs = (part: string): boolean => parts.length === 0 || parts.includes(part);

const sender = (url: string) => async (): Promise<Answer> => {
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers };
};

async function steady(mode: UpstreamMode, makeClient: () => Client) {
  const upstream = await startLimitedUpstream(mode, () => LIMIT);
  const client = makeClient();
  const send = sender(upstream.url);
  let remaining = CALLS;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (remaining > 0) {
        remaining--;
        const answer = await client(send).catch(() => ({ status: 0 }));
        if (answer.status !== 200) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await upstream.close();
  const { ok, refused } = upstream.stats;
  return {
    seconds,
    ok,
    refused,
    failed,
    share429: refused / (ok + refused),
    callsPerSecond: ok / seconds,
  };
}

async function changing(makeClient: () => Client) {
  const limitAt = (ms: number) =>
    PHASES[Math.min(PHASES.length - 1, Math.floor(ms / PHASE_MS))] as number;
  const upstream = await startLimitedUpstream('token-bucket', limitAt);
  const client = makeClient();
  const send = sender(upstream.url);
  const until = performance.now() + PHASE_MS * PHASES.length;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) await client(send).catch(() => undefined);
    }),
  );
  await upstream.close();
  const perSecond = upstream.acceptedPerSecond;
  const settle = PHASES.map((limit, phase) => settleSeconds(perSecond, phase, limit));
  const { ok, refused } = upstream.stats;
  return { settle, perSecond, share429: refused / (ok + refused) };
}

/** Seconds after the phase starts until accepted calls per second stay within 15 % of its limit. */
function settleSeconds(perSecond: number[], phase: number, limit: number): number | undefined {
  const first = (phase * PHASE_MS) / 1000;
  const last = first + PHASE_MS / 1000 - 1;
  for (let second = first; second <= last; second++) {
    const rest = perSecond.slice(second, last + 1).map((value) => value ?? 0);
    if (rest.every((value) => Math.abs(value - limit) <= 0.15 * limit)) return second - first;
  }
  return undefined;
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const results: Record<string, unknown> = {};
const lines: string[] = [];
if (runs('steady'))
  lines.push(
    `${CALLS} calls, ${CALLERS} callers, upstream limit ${LIMIT}/s (ideal ${(CALLS / LIMIT).toFixed(0)} s, no 429):`,
    '',
    '| upstream | client | time | × ideal | 429 share | calls/s | failed |',
    '|---|---|---:|---:|---:|---:|---:|',
  );
for (const mode of runs('steady') ? (['fixed-window', 'token-bucket'] as const) : []) {
  for (const [name, make] of Object.entries(CLIENTS)) {
    log(`steady ${mode}: ${name} ...`);
    const run = await steady(mode, make);
    results[`steady/${mode}/${name}`] = run;
    lines.push(
      `| ${mode} | ${name} | ${run.seconds.toFixed(1)} s | ${(run.seconds / (CALLS / LIMIT)).toFixed(2)}× | ${pct(run.share429)} | ${run.callsPerSecond.toFixed(1)} | ${run.failed} |`,
    );
  }
}
if (runs('changing'))
  lines.push(
    '',
    `Limit changing ${PHASES.join(' → ')} per second every ${PHASE_MS / 1000} s (token-bucket upstream, ${CALLERS} callers): seconds until accepted calls per second stay within 15 % of the new limit (— = never in the phase)`,
    '',
    `| client | ${PHASES.map((limit) => `to ${limit}/s`).join(' | ')} | 429 share |`,
    `|---|${PHASES.map(() => '---:').join('|')}|---:|`,
  );
for (const [name, make] of runs('changing') ? Object.entries(CLIENTS) : []) {
  log(`changing: ${name} ...`);
  const run = await changing(make);
  results[`changing/${name}`] = run;
  lines.push(
    `| ${name} | ${run.settle.map((s) => (s === undefined ? '—' : `${s} s`)).join(' | ')} | ${pct(run.share429)} |`,
  );
}
if (runs('hedging')) {
  const hedging = await hedgingReport(log);
  results['hedging'] = hedging.results;
  lines.push(...hedging.lines);
}
if (runs('retries')) {
  const retries = await amplificationReport(log);
  results['retries'] = retries.results;
  lines.push(...retries.lines);
}
process.stdout.write(`${lines.join('\n')}\n`);
const reports = resolve(import.meta.dirname, '../../../../reports/bench');
mkdirSync(reports, { recursive: true });
writeFileSync(join(reports, 'upstream.json'), `${JSON.stringify(results, null, 2)}\n`);
