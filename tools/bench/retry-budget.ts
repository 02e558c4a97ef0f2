/**
 * The retry budget on a flaky upstream and on a dead one, with and without it, in virtual
 * time (no real timers). A default idempotent `shieldTool` with 3 retries and the
 * default backoff, its attempts failing independently with ECONNRESET at probability p and
 * answering at once (issue 33's bench):
 *
 * - goodput at p = 0.3 over 10,000 calls in a row, through the default breaker (bound without
 *   a budget: 1 - 0.3⁴ = 99.19 %), and the same with 50 callers starting at once;
 * - breaker openings at p = 0.3 (a window counts when one of its calls was refused as open):
 * 2,000 windows of 60 calls in a row, each through a fresh
 *   default breaker, while the budget lives on as a tool's does;
 * - requests per call at p = 1: 50 callers starting at once, 200 calls each, without a breaker
 *   (the breaker would hide the budget).
 *
 * Rows: the default budget (earned by successes); the same budget with `successRatio: 0`, so
 * that only calls earn retries, as in gRPC's retry throttling, Finagle's `RetryBudget` and the
 * AWS retry quota (their own rows against a real upstream are in `bench:upstream`); and no
 * budget.
 */
import { shieldTool, type ShieldedTool, type ShieldOptions } from '@toolshield/core';
import { LocalRetryBudgetStore } from '@toolshield/core/internal';
import { VirtualClock } from '@toolshield/core/testing';
import { seeded } from './seeded-random.js';

const RETRIES = 3;
const FLAKY = 0.3;
const GOODPUT_CALLS = 10_000;
const WINDOWS = Number(process.env.BENCH_RETRY_BUDGET_WINDOWS ?? 2_000);
const CALLS_PER_WINDOW = 60;
const CALLERS = 50;
const DEAD_CALLS_EACH = 200;

/** Calls made through one tool: a fresh default breaker of its own, or none. */
interface Window {
  readonly breaker: boolean;
  /** Whether a call of the window was refused by an open breaker. */
  opened: boolean;
}

/** A default idempotent tool in front of one upstream; a new window gets a new tool. */
interface Upstream {
  call(window: Window): Promise<boolean>;
  /** Attempts that reached the upstream so far. */
  requests(): number;
}

/** One row: a name and the tool's retry options. */
interface Row {
  readonly name: string;
  readonly retry: ShieldOptions['retry'];
}

const ROWS: readonly Row[] = [
  { name: 'toolshield, retry budget (default)', retry: { maxRetries: RETRIES } },
  {
    name: 'toolshield, retry budget counting calls only (`successRatio: 0`)',
    retry: { maxRetries: RETRIES, retryBudget: { successRatio: 0 } },
  },
  { name: 'toolshield, retry budget off', retry: { maxRetries: RETRIES, retryBudget: false } },
];

function econnreset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
}

/**
 * `row`'s tool in front of an upstream whose attempts fail at `p`, drawing from `random`. A new
 * breaker gets a new tool on the same retry budget store: one budget lives on, as a tool's does.
 */
function upstreamOf(row: Row, p: number, random: () => number, clock: VirtualClock): Upstream {
  let requests = 0;
  const retryBudgetStore = new LocalRetryBudgetStore();
  let current: { window: Window; tool: ShieldedTool<object, string> } | undefined;
  const toolFor = (window: Window) => {
    if (current?.window !== window) {
      const tool = shieldTool(
        () => {
          requests++;
          if (random() < p) throw econnreset();
          return 'ok';
        },
        {
          name: 'web_search',
          idempotent: true,
          clock,
          breaker: window.breaker ? {} : false,
          retry: row.retry,
          retryBudgetStore,
        },
      );
      current = { window, tool };
    }
    return current.tool;
  };
  return {
    call: async (window) => {
      const outcome = await toolFor(window)({});
      if (!outcome.success && outcome.errorType === 'circuit_open') window.opened = true;
      return outcome.success;
    },
    requests: () => requests,
  };
}

/** `callers` callers starting at once, `each` calls one after another; the successes. */
async function drive(
  upstream: Upstream,
  clock: VirtualClock,
  window: Window,
  callers: number,
  each: number,
): Promise<number> {
  let successes = 0;
  const caller = async () => {
    for (let call = 0; call < each; call++) if (await upstream.call(window)) successes++;
  };
  await clock.runUntilSettled(Promise.all(Array.from({ length: callers }, caller)));
  return successes;
}

const newClock = () => new VirtualClock({ maxTimersPerRun: 10_000_000 });
const newWindow = (breaker: boolean): Window => ({ breaker, opened: false });

async function goodput(row: Row, callers: number): Promise<number> {
  const clock = newClock();
  const upstream = upstreamOf(row, FLAKY, seeded(7), clock);
  const successes = await drive(upstream, clock, newWindow(true), callers, GOODPUT_CALLS / callers);
  return successes / GOODPUT_CALLS;
}

/** Windows in which a fresh default breaker opened; the tool's budget lives on. */
async function breakerOpenings(row: Row): Promise<number> {
  const clock = newClock();
  const upstream = upstreamOf(row, FLAKY, seeded(11), clock);
  let opened = 0;
  for (let window = 0; window < WINDOWS; window++) {
    const window = newWindow(true);
    await drive(upstream, clock, window, 1, CALLS_PER_WINDOW);
    if (window.opened) opened++;
  }
  return opened;
}

async function deadRequestsPerCall(row: Row): Promise<number> {
  const clock = newClock();
  const upstream = upstreamOf(row, 1, () => 0, clock);
  await drive(upstream, clock, newWindow(false), CALLERS, DEAD_CALLS_EACH);
  return upstream.requests() / (CALLERS * DEAD_CALLS_EACH);
}

const pct = (value: number) => `${(value * 100).toFixed(2)} %`;

/** The Markdown table of every row, measured one after the other. */
export async function runRetryBudgetBench(log: (line: string) => void): Promise<string> {
  const lines = [
    `Retry budget: a default idempotent tool, ${RETRIES} retries, attempts failing with ECONNRESET at p (virtual time). Goodput at p = ${FLAKY} over ${GOODPUT_CALLS.toLocaleString('en')} calls through the default breaker (bound without a budget ${pct(1 - FLAKY ** 4)}), one caller and ${CALLERS} starting at once; fresh default breakers opened in ${WINDOWS.toLocaleString('en')} windows of ${CALLS_PER_WINDOW} calls at p = ${FLAKY}; requests per call at p = 1, ${CALLERS} callers × ${DEAD_CALLS_EACH} calls, no breaker.`,
    '',
    `| client | goodput, p = ${FLAKY}, 1 caller | ${CALLERS} callers | breaker opened, p = ${FLAKY} | requests per call, p = 1 |`,
    '|---|---:|---:|---:|---:|',
  ];
  for (const row of ROWS) {
    log(`retry budget: ${row.name} ...`);
    const [sequential, concurrent, opened, dead] = [
      await goodput(row, 1),
      await goodput(row, CALLERS),
      await breakerOpenings(row),
      await deadRequestsPerCall(row),
    ];
    lines.push(
      `| ${row.name} | ${pct(sequential)} | ${pct(concurrent)} | ${opened} of ${WINDOWS.toLocaleString('en')} | ${dead.toFixed(2)}× |`,
    );
  }
  return lines.join('\n');
}
