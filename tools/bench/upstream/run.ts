/**
 * `npm run bench:upstream`: toolshield against misbehaving upstreams over real HTTP on
 * 127.0.0.1, side by side with the peers in one run.
 *
 * Rate limits: clients that are not told an upstream's limit (limited-upstream.ts, clients.ts),
 * the upstream in a child process of its own, counting and announcing as its kind says
 * (upstream-counter.ts).
 *
 * 1. Steady: 1,000 calls from 20 concurrent callers against a 50/s limit (ideal: 20 s, no 429),
 *    once against each kind of upstream.
 * 2. Changing: 20 callers for 30 s while the limit moves 50 → 20 → 80 per second every 10 s
 *    (both token buckets, the sliding log and the bare fixed window): per phase, how long each client takes to settle within 10 % of
 *    the new rate and the share of its requests refused.
 *
 * `BENCH_UPSTREAM_CLIENTS=aws,toolshield` runs only the clients named (a part of the name), and
 * `BENCH_UPSTREAM_KINDS=token-bucket,sliding-log` only the kinds of upstream named (whole names).
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
import { startLimitedUpstream, type UpstreamKind } from './limited-upstream.js';

const CALLERS = 20;
const CALLS = Number(process.env.BENCH_RATE_LIMIT_CALLS ?? 1_000);
const LIMIT = 50;
const PHASE_MS = 10_000;
const PHASES = [50, 20, 80];
/** Within this share of the new limit, a client has settled. */
const SETTLED = 0.1;
/** The upstreams of the steady rows, and of the changing-limit rows. */
const STEADY: readonly UpstreamKind[] = [
  'sliding-log',
  'token-bucket-ietf',
  'fixed-window',
  'token-bucket-x',
  'fixed-window-ietf',
  'token-bucket',
];
const CHANGING: readonly UpstreamKind[] = [
  'token-bucket',
  'token-bucket-x',
  'sliding-log',
  'fixed-window',
];
/** `BENCH_UPSTREAM_KINDS=token-bucket,sliding-log` runs only the kinds of upstream named. */
const kinds = process.env.BENCH_UPSTREAM_KINDS?.split(',');
const chosen = (all: readonly UpstreamKind[]) =>
  all.filter((kind) => kinds === undefined || kinds.includes(kind));
/** `BENCH_UPSTREAM_CLIENTS=aws,toolshield` runs only the clients whose names contain one of these. */
const only = process.env.BENCH_UPSTREAM_CLIENTS?.split(',');
const clients = Object.entries(CLIENTS).filter(
  ([name]) => only === undefined || only.some((part) => name.includes(part)),
);
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const parts = process.argv.slice(2);
const runs = (part: string): boolean => parts.length === 0 || parts.includes(part);

const sender = (url: string) => async (): Promise<Answer> => {
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers };
};

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

async function steady(kind: UpstreamKind, makeClient: () => Client) {
  const upstream = await startLimitedUpstream(kind, [LIMIT]);
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
  const { acceptedPerSecond, refusedPerSecond } = await upstream.stats();
  await upstream.close();
  const [ok, refused] = [sum(acceptedPerSecond), sum(refusedPerSecond)];
  return { seconds, ok, refused, failed, share429: refused / (ok + refused), refusedPerSecond };
}

async function changing(kind: UpstreamKind, makeClient: () => Client) {
  const upstream = await startLimitedUpstream(kind, PHASES, PHASE_MS);
  const client = makeClient();
  const send = sender(upstream.url);
  const until = performance.now() + PHASE_MS * PHASES.length;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) await client(send).catch(() => undefined);
    }),
  );
  const { acceptedPerSecond, refusedPerSecond } = await upstream.stats();
  await upstream.close();
  const phases = PHASES.map((limit, phase) => {
    const seconds = [phase * PHASE_MS, (phase + 1) * PHASE_MS].map((ms) => ms / 1000);
    const ok = sum(acceptedPerSecond.slice(...seconds));
    const refused = sum(refusedPerSecond.slice(...seconds));
    return {
      limit,
      settle: settleSeconds(acceptedPerSecond, phase, limit),
      share429: refused / (ok + refused),
    };
  });
  const [ok, refused] = [sum(acceptedPerSecond), sum(refusedPerSecond)];
  return { phases, acceptedPerSecond, refusedPerSecond, share429: refused / (ok + refused) };
}

/** Seconds after the phase starts until accepted calls per second stay within `SETTLED` of its limit. */
function settleSeconds(perSecond: number[], phase: number, limit: number): number | undefined {
  const first = (phase * PHASE_MS) / 1000;
  const last = first + PHASE_MS / 1000 - 1;
  for (let second = first; second <= last; second++) {
    // Every second to the phase's end, one with nothing accepted (a hole, or past the end) as 0.
    const rest = Array.from(
      { length: last + 1 - second },
      (_, index) => perSecond[second + index] ?? 0,
    );
    if (rest.every((value) => Math.abs(value - limit) <= SETTLED * limit)) return second - first;
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
    '| upstream | client | time | × ideal | 429 share | failed |',
    '|---|---|---:|---:|---:|---:|',
  );
for (const kind of runs('steady') ? chosen(STEADY) : []) {
  for (const [name, make] of clients) {
    log(`steady ${kind}: ${name} ...`);
    const run = await steady(kind, make);
    results[`steady/${kind}/${name}`] = run;
    lines.push(
      `| ${kind} | ${name} | ${run.seconds.toFixed(1)} s | ${(run.seconds / (CALLS / LIMIT)).toFixed(2)}× | ${pct(run.share429)} | ${run.failed} |`,
    );
  }
}
if (runs('changing'))
  lines.push(
    '',
    `Limit changing ${PHASES.join(' → ')} per second every ${PHASE_MS / 1000} s (${CALLERS} callers): per phase, seconds until accepted calls per second stay within ${SETTLED * 100} % of the new limit (— = never in the phase) and the share refused`,
    '',
    `| upstream | client | ${PHASES.map((limit) => `at ${limit}/s`).join(' | ')} | 429 share |`,
    `|---|---|${PHASES.map(() => '---:').join('|')}|---:|`,
  );
for (const kind of runs('changing') ? chosen(CHANGING) : []) {
  for (const [name, make] of clients) {
    log(`changing ${kind}: ${name} ...`);
    const run = await changing(kind, make);
    results[`changing/${kind}/${name}`] = run;
    const cells = run.phases.map(
      ({ settle, share429 }) => `${settle === undefined ? '—' : `${settle} s`}, ${pct(share429)}`,
    );
    lines.push(`| ${kind} | ${name} | ${cells.join(' | ')} | ${pct(run.share429)} |`);
  }
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
