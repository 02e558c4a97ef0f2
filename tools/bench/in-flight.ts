/**
 * What calls in flight cost, measured in a fresh process started with --expose-gc
 * (`node --expose-gc in-flight.js` prints one line of JSON; run.js calls {@link runInFlight}):
 *
 * - launch cost: µs to start one more call while 1k, 10k and 50k calls of the same tool are in
 *   flight (median of samples of {@link LAUNCH_SAMPLE} launches; the goal is flat);
 * - burst: event-loop delay (perf_hooks `monitorEventLoopDelay`, 1 ms resolution) while
 *   {@link BURST} calls start in one synchronous loop, over the burst and the
 *   {@link BURST_WINDOW_MS} ms after it; also how long the loop itself held the thread;
 * - heap per in-flight call (after forced GC), next to what the same tool body holds when
 *   called directly, without toolshield;
 * - shutdown: `app.close()` with every call still in flight, which must end each `cancelled`.
 *
 * Every call runs a default tool (breaker + timeout; the timeout raised to 10 minutes so
 * nothing times out during the run) whose body waits on one gate that never opens.
 */
import 'reflect-metadata';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ToolOutcome, ToolCallContext } from '@toolshield/core';
import { Tool, ToolArgs, ToolCall, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as tick, setTimeout as wait } from 'node:timers/promises';
import { lookupBody, type LookupArgs } from './fixtures.js';
import { settledHeap } from './memory.js';
import { bytes, median, us } from './stats.js';

const LEVELS = [1_000, 10_000, 50_000] as const;
const LAUNCH_SAMPLE = 100;
const LAUNCH_SAMPLES = 7;
const BURST = 10_000;
const BURST_WINDOW_MS = 200;
const HEAP_CALLS = 10_000;

/** A gate no call gets through: every call stays in flight until the application closes. */
const closedGate = new Promise<void>(() => undefined);

@Injectable()
class InFlightTools {
  @Tool({ name: 'wait', description: 'Waits on a gate that never opens.', timeoutMs: 600_000 })
  async wait(@ToolArgs() args: LookupArgs) {
    await closedGate;
    return lookupBody(args);
  }

  @Tool({
    name: 'wait_listening',
    description: 'Waits on the gate, listening to its signal as fetch would.',
    timeoutMs: 600_000,
  })
  async waitListening(@ToolArgs() args: LookupArgs, @ToolCall() call: ToolCallContext) {
    call.signal.addEventListener('abort', ignoreAbort);
    await closedGate;
    return lookupBody(args);
  }
}

const ignoreAbort = (): void => undefined;

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [InFlightTools] })
class InFlightModule {}

export interface LaunchCost {
  readonly inFlight: number;
  /** µs per launched call, median over samples. */
  readonly usPerLaunch: number;
}

export interface InFlightReport {
  readonly launch: LaunchCost[];
  readonly burst: {
    readonly calls: number;
    /** How long the synchronous loop starting the calls held the thread. */
    readonly loopMs: number;
    readonly p99Ms: number;
    readonly maxMs: number;
  };
  /** Heap bytes per call in flight through toolshield. */
  readonly heapPerCall: number;
  /** The same, for a tool that reads its `call.signal` and listens to it (as `fetch` does). */
  readonly heapPerListeningCall: number;
  /** Heap bytes per pending direct call of the same body, for reference. */
  readonly heapPerDirectCall: number;
  readonly shutdown: { readonly calls: number; readonly ms: number; readonly cancelled: number };
}

async function start(): Promise<{ app: INestApplicationContext; executor: ToolExecutor }> {
  const app = await NestFactory.createApplicationContext(InFlightModule, { logger: false });
  await app.init();
  return { app, executor: app.get(ToolExecutor) };
}

const json = JSON.stringify({ city: 'Paris' });

function launch(
  executor: ToolExecutor,
  count: number,
  into: Promise<ToolOutcome>[],
  name = 'wait',
): void {
  for (let i = 0; i < count; i++) {
    into.push(executor.execute({ id: `call_${into.length}`, name, arguments: json }));
  }
}

async function launchCosts(): Promise<{
  launch: LaunchCost[];
  shutdown: InFlightReport['shutdown'];
}> {
  const { app, executor } = await start();
  const calls: Promise<ToolOutcome>[] = [];
  const launchCost: LaunchCost[] = [];
  for (const level of LEVELS) {
    while (calls.length < level) {
      launch(executor, Math.min(1_000, level - calls.length), calls);
      await tick();
    }
    const samples: number[] = [];
    for (let i = 0; i < LAUNCH_SAMPLES; i++) {
      const began = performance.now();
      launch(executor, LAUNCH_SAMPLE, calls);
      samples.push(((performance.now() - began) * 1_000) / LAUNCH_SAMPLE);
      await tick();
    }
    launchCost.push({ inFlight: level, usPerLaunch: median(samples) });
  }
  const began = performance.now();
  await app.close();
  const outcomes = await Promise.all(calls);
  const ms = performance.now() - began;
  const cancelled = outcomes.filter(
    (outcome) => !outcome.success && outcome.errorType === 'cancelled',
  ).length;
  return { launch: launchCost, shutdown: { calls: calls.length, ms, cancelled } };
}

async function burst(): Promise<InFlightReport['burst']> {
  const { app, executor } = await start();
  const calls: Promise<ToolOutcome>[] = [];
  launch(executor, 10, calls); // warm the tool's pipeline and breaker
  await wait(50);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await wait(20);
  const began = performance.now();
  launch(executor, BURST, calls);
  const loopMs = performance.now() - began;
  await wait(BURST_WINDOW_MS);
  histogram.disable();
  await app.close();
  await Promise.all(calls);
  return {
    calls: BURST,
    loopMs,
    p99Ms: histogram.percentile(99) / 1e6,
    maxMs: histogram.max / 1e6,
  };
}

/** Heap bytes per call of `tool` in flight, after forced GC. */
async function heapPerToolCall(tool: string): Promise<number> {
  const { app, executor } = await start();
  launch(executor, 10, [], tool);
  const before = await settledHeap();
  const calls: Promise<ToolOutcome>[] = [];
  launch(executor, HEAP_CALLS, calls, tool);
  const after = await settledHeap();
  await app.close();
  await Promise.all(calls);
  return (after - before) / HEAP_CALLS;
}

async function heapPerCall(): Promise<{ toolshield: number; listening: number; direct: number }> {
  const toolshield = await heapPerToolCall('wait');
  const listening = await heapPerToolCall('wait_listening');

  const tools = new InFlightTools();
  const directBefore = await settledHeap();
  const direct: Promise<unknown>[] = [];
  for (let i = 0; i < HEAP_CALLS; i++) direct.push(tools.wait({ city: 'Paris' }));
  const directAfter = await settledHeap();
  if (direct.length !== HEAP_CALLS) throw new Error('lost direct calls');
  return { toolshield, listening, direct: (directAfter - directBefore) / HEAP_CALLS };
}

async function measure(): Promise<InFlightReport> {
  const heap = await heapPerCall();
  const burstReport = await burst();
  const { launch: launchReport, shutdown } = await launchCosts();
  return {
    launch: launchReport,
    burst: burstReport,
    heapPerCall: heap.toolshield,
    heapPerListeningCall: heap.listening,
    heapPerDirectCall: heap.direct,
    shutdown,
  };
}

/** Runs the measurement in a fresh process and returns its report. */
export function runInFlight(log: (line: string) => void): InFlightReport {
  log('in flight: a fresh process with --expose-gc ...');
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), 'run'],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as InFlightReport;
}

/** The report as Markdown lines. */
export function inFlightTable(report: InFlightReport): string {
  const ms = (value: number) => value.toFixed(1);
  return [
    'Calls in flight (default tool whose body waits on a gate that never opens):',
    '',
    '| Measure | value | goal |',
    '|---|---:|---|',
    ...report.launch.map(
      ({ inFlight, usPerLaunch }) =>
        `| launch cost with ${inFlight.toLocaleString('en-US')} in flight | ${us(usPerLaunch)} µs/call | flat |`,
    ),
    `| event-loop delay p99 while ${report.burst.calls.toLocaleString('en-US')} calls start in one burst | ${ms(report.burst.p99Ms)} ms | ≤ 20 ms |`,
    `| event-loop delay max, same burst | ${ms(report.burst.maxMs)} ms | |`,
    `| the burst's synchronous loop | ${ms(report.burst.loopMs)} ms | |`,
    `| heap per in-flight call | ${bytes(report.heapPerCall)} | ≤ 2 KB |`,
    `| heap per in-flight call of a tool listening to its \`call.signal\` (as \`fetch\` does) | ${bytes(report.heapPerListeningCall)} | |`,
    `| heap per pending direct call of the same body (reference) | ${bytes(report.heapPerDirectCall)} | |`,
    `| app.close() with ${report.shutdown.calls.toLocaleString('en-US')} in flight | ${ms(report.shutdown.ms)} ms, ${report.shutdown.cancelled.toLocaleString('en-US')} ended cancelled | all cancelled |`,
  ].join('\n');
}

if (process.argv[2] === 'run') {
  process.stdout.write(`${JSON.stringify(await measure())}\n`);
}
