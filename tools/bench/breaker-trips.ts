/**
 * `npm run bench:breaker`: how often a default breaker opens on a healthy but flaky upstream,
 * and how fast it opens on a dead one. Simulated in virtual time (no real timers): calls
 * arrive every 1/6 s, attempts fail independently with probability p, retries up to 3.
 *
 * Rows: the shipped `ToolCircuitBreaker` counting calls the way `@toolshield/nest` drives it
 * (a retried attempt's failure is committed only when the call fails for good), the same
 * breaker counting every attempt (how it counted before), and a few other rules as a pure
 * model, for the trade-off table in docs/benchmarks.md.
 */
import { UpstreamUnavailableError, type Clock } from '@toolshield/core';
import { ToolCircuitBreaker } from '@toolshield/core/internal';
import { seeded } from './seeded-random.js';

const WINDOWS = Number(process.env.BENCH_BREAKER_WINDOWS ?? 10_000);
const CALLS_PER_WINDOW = 60;
const CALL_SPACING_MS = 1000 / 6;
const RETRIES = 3;
const GOODPUT_CALLS = 10_000;

/** A clock that moves only when told to; the breaker's one timer (open → half-open) is kept and run by hand. */
class SteppedClock implements Clock {
  private current = 0;
  private timers: { due: number; run: () => void }[] = [];
  now(): number {
    return this.current;
  }
  setTimer(run: () => void, delayMs: number): () => void {
    const timer = { due: this.current + Math.max(0, delayMs), run };
    this.timers.push(timer);
    return () => void (this.timers = this.timers.filter((other) => other !== timer));
  }
  advance(ms: number): void {
    this.current += ms;
    const due = this.timers.filter((timer) => timer.due <= this.current);
    this.timers = this.timers.filter((timer) => timer.due > this.current);
    for (const timer of due) timer.run();
  }
}

type Counting = 'calls' | 'attempts';

/** One call with up to RETRIES retries through `breaker`; resolves whether it succeeded. */
async function call(
  breaker: ToolCircuitBreaker,
  failed: () => boolean,
  counting: Counting,
): Promise<boolean> {
  let pendingFailure: (() => void) | undefined;
  const options =
    counting === 'calls' ? { deferFailure: (count: () => void) => (pendingFailure = count) } : {};
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    pendingFailure = undefined;
    try {
      await breaker.execute(async () => {
        if (failed()) throw new UpstreamUnavailableError('HTTP 503');
      }, options);
      return true;
    } catch (error) {
      if ((error as { type?: string }).type === 'circuit_open') return false;
    }
  }
  pendingFailure?.();
  return false;
}

function newBreaker(clock: SteppedClock): ToolCircuitBreaker {
  return new ToolCircuitBreaker({}, { clock, tool: 'search', key: 'search' });
}

/** Share of fresh windows in which the breaker opened, at failure probability p. */
async function tripRate(p: number, counting: Counting): Promise<number> {
  let opened = 0;
  for (let window = 0; window < WINDOWS; window++) {
    const clock = new SteppedClock();
    const breaker = newBreaker(clock);
    const random = seeded(window * 7919 + Math.round(p * 1000));
    for (let i = 0; i < CALLS_PER_WINDOW && breaker.state === 'closed'; i++) {
      await call(breaker, () => random() < p, counting);
      clock.advance(CALL_SPACING_MS);
    }
    if (breaker.state !== 'closed') opened++;
    breaker.dispose();
  }
  return opened / WINDOWS;
}

/** Calls made to a dead upstream before the breaker opens, after `healthy` successful calls. */
async function callsToOpen(
  healthy: number,
  counting: Counting,
): Promise<{ calls: number; ms: number }> {
  const clock = new SteppedClock();
  const breaker = newBreaker(clock);
  for (let i = 0; i < healthy; i++) {
    await call(breaker, () => false, counting);
    clock.advance(CALL_SPACING_MS);
  }
  const deadAt = clock.now();
  let calls = 0;
  while (breaker.state === 'closed' && calls < 1_000) {
    await call(breaker, () => true, counting);
    calls++;
    clock.advance(CALL_SPACING_MS);
  }
  breaker.dispose();
  return { calls, ms: clock.now() - deadAt };
}

/** Successful calls out of GOODPUT_CALLS at p = 0.3 through one breaker (open time included). */
async function goodput(counting: Counting): Promise<number> {
  const clock = new SteppedClock();
  const breaker = newBreaker(clock);
  const random = seeded(42);
  let ok = 0;
  for (let i = 0; i < GOODPUT_CALLS; i++) {
    if (await call(breaker, () => random() < 0.3, counting)) ok++;
    clock.advance(CALL_SPACING_MS);
  }
  breaker.dispose();
  return ok / GOODPUT_CALLS;
}

const pct = (value: number, digits = 2) => `${(value * 100).toFixed(digits)} %`;
const lines = [
  `Default breaker (> 50 % over 10 s with at least 10, 30 s open), ${WINDOWS.toLocaleString('en')} fresh windows of ${CALLS_PER_WINDOW} calls, retries up to ${RETRIES}; dead upstream after 60 healthy calls, and cold:`,
  '',
  '| counting | opened, p = 0.3 | opened, p = 0.4 | opened, p = 0.5 | dead: calls (s) to open, warm | cold | goodput at p = 0.3 (bound 99.19 %) |',
  '|---|---:|---:|---:|---:|---:|---:|',
];
for (const counting of ['calls', 'attempts'] as const) {
  const [p3, p4, p5] = [
    await tripRate(0.3, counting),
    await tripRate(0.4, counting),
    await tripRate(0.5, counting),
  ];
  const warm = await callsToOpen(60, counting);
  const cold = await callsToOpen(0, counting);
  const label =
    counting === 'calls' ? 'calls (shipped)' : 'attempts (as before; same decision rules)';
  lines.push(
    `| ${label} | ${pct(p3)} | ${pct(p4)} | ${pct(p5)} | ${warm.calls} (${(warm.ms / 1000).toFixed(1)} s) | ${cold.calls} (${(cold.ms / 1000).toFixed(1)} s) | ${pct(await goodput(counting))} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
