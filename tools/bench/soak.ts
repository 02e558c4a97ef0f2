/**
 * Heap over a long soak (`npm run bench:soak`, or `node --expose-gc soak.js [calls]
 * [samples]`, default 5,000,000 calls and 25 samples) makes `calls` calls of a
 * few tools whose outcomes cover every kind a failure path takes (a success, `internal` with a
 * message that differs on every call, `not_found`, `invalid_input`, `tool_not_found`,
 * `circuit_open`, `upstream_unavailable`, `rate_limited`, `cancelled`, and one `timeout` in
 * {@link TIMEOUT_EVERY}), one after the other, and prints JSON: the heap used after forced GC
 * at `samples` evenly spaced points (on stdout), and on stderr a Markdown table of them with the
 * growth per call over the second half (a plateau is about 0 B/call).
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  NotFoundError,
  RateLimitedError,
  UpstreamUnavailableError,
  type ToolCallRequest,
} from '@toolshield/core';
import {
  Tool,
  ToolArgs,
  ToolCircuitBreakers,
  ToolExecutor,
  ToolShieldModule,
} from '@toolshield/nest';
import { setTimeout as sleep } from 'node:timers/promises';
import { LookupDto, lookupBody, type LookupArgs } from './fixtures.js';
import { settledHeap } from './settled-heap.js';

const HOUR_MS = 3_600_000;
/** One call in this many is a `timeout` (each costs a millisecond of wall time). */
const TIMEOUT_EVERY = 200;
/**
 * The breakers of the failing tools are closed (a fresh window) every this many calls: they
 * open after a run of failures, and the soak is about every path, not mostly the open one.
 */
const CLOSE_EVERY = 50;
/** The tools whose breakers the soak closes again. */
const FAILING = ['buggy', 'unavailable', 'limited', 'missing', 'slow'];

@Injectable()
class SoakTools {
  @Tool({ name: 'ok', description: 'Succeeds.' })
  async ok(@ToolArgs() args: LookupArgs) {
    return lookupBody(args);
  }

  @Tool({ name: 'validated', description: 'Validates its DTO.' })
  async validated(@ToolArgs() args: LookupDto) {
    return lookupBody(args);
  }

  @Tool({ name: 'buggy', description: 'Throws a plain Error, a new message each time.' })
  async buggy(@ToolArgs() args: LookupArgs & { n?: number }): Promise<never> {
    throw new Error(`Upstream said no to request ${args.n ?? 0} (api_key=sk-live-4f9a8b7c6d5e)`);
  }

  @Tool({ name: 'missing', description: 'Throws not_found.' })
  async missing(@ToolArgs() _args: LookupArgs): Promise<never> {
    throw new NotFoundError('No city of that name');
  }

  @Tool({ name: 'unavailable', description: 'Throws upstream_unavailable.' })
  async unavailable(@ToolArgs() _args: LookupArgs): Promise<never> {
    throw new UpstreamUnavailableError('The upstream answered 503');
  }

  @Tool({ name: 'limited', description: 'Throws rate_limited.' })
  async limited(@ToolArgs() _args: LookupArgs): Promise<never> {
    throw new RateLimitedError('Too many requests', { retryAfterMs: 1_000 });
  }

  @Tool({
    name: 'down',
    description: 'Its breaker is held open.',
    breaker: { resetTimeoutMs: HOUR_MS },
  })
  async down(@ToolArgs() args: LookupArgs) {
    return lookupBody(args);
  }

  @Tool({ name: 'slow', description: 'Outlasts its 1 ms timeout.', timeoutMs: 1 })
  async slow(@ToolArgs() args: LookupArgs) {
    await sleep(5);
    return lookupBody(args);
  }
}

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [SoakTools] })
class SoakModule {}

/** The heap at evenly spaced points of a soak. */
export interface SoakSample {
  readonly calls: number;
  /** Heap used after forced GC, in bytes, after `atCalls[i]` calls. */
  readonly heap: readonly number[];
  readonly atCalls: readonly number[];
  /** How many calls ended with each outcome (`ok` or the error type). */
  readonly outcomes: Readonly<Record<string, number>>;
}

/** The calls of one round: every outcome once (a timeout only every {@link TIMEOUT_EVERY} calls). */
const ROUND: readonly (readonly [string, string])[] = [
  ['ok', '{"city":"Paris"}'],
  ['validated', '{"city":"Paris"}'],
  ['validated', '{"city":""}'],
  ['buggy', ''],
  ['missing', '{"city":"Paris"}'],
  ['unavailable', '{"city":"Paris"}'],
  ['limited', '{"city":"Paris"}'],
  ['down', '{"city":"Paris"}'],
  ['nope', '{"city":"Paris"}'],
  ['cancelled', '{"city":"Paris"}'],
];

/**
 * Runs a soak of `calls` calls and samples the heap `samples` times; `onSample` (to show
 * progress, or write a heap snapshot) runs after each sample.
 */
export async function soak(
  calls: number,
  samples: number,
  onSample?: (calls: number, heapUsed: number) => void,
): Promise<SoakSample> {
  const app = await NestFactory.createApplicationContext(SoakModule, { logger: false });
  await app.init();
  const executor = app.get(ToolExecutor);
  const breakers = app.get(ToolCircuitBreakers);
  await breakers.open('down');
  const aborted = AbortSignal.abort();
  const outcomes: Record<string, number> = {};
  const heap: number[] = [];
  const atCalls: number[] = [];
  const every = Math.max(1, Math.floor(calls / samples));
  for (let i = 1; i <= calls; i++) {
    if (i % CLOSE_EVERY === 0)
      for (const tool of FAILING) if (breakers.find(tool)) await breakers.close(tool);
    const [name, args] =
      i % TIMEOUT_EVERY === 0
        ? ['slow', '{"city":"Paris"}']
        : (ROUND[i % ROUND.length] as [string, string]);
    const request: ToolCallRequest =
      name === 'buggy'
        ? { id: `call_${i}`, name, arguments: `{"city":"Paris","n":${i}}` }
        : { id: `call_${i}`, name: name === 'cancelled' ? 'ok' : name, arguments: args };
    const outcome = await executor.execute(
      request,
      name === 'cancelled' ? { signal: aborted } : {},
    );
    const kind = outcome.success ? 'ok' : outcome.errorType;
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    if (i % every === 0) {
      heap.push(await settledHeap());
      atCalls.push(i);
      onSample?.(i, heap.at(-1) as number);
    }
  }
  await app.close();
  return { calls, heap, atCalls, outcomes };
}

/** Bytes per call the heap grew over the second half of a soak (least squares). */
export function growthPerCall({ heap, atCalls }: SoakSample): number {
  const half = Math.floor(heap.length / 2);
  const xs = atCalls.slice(half);
  const ys = heap.slice(half);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += ((xs[i] as number) - meanX) * ((ys[i] as number) - meanY);
    den += ((xs[i] as number) - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The soak's heap as Markdown: every sample, then the growth per call over the second half. */
export function soakReport(sample: SoakSample): string {
  const rows = sample.heap.map(
    (bytes, i) =>
      `| ${(sample.atCalls[i] as number).toLocaleString('en')} | ${(bytes / 1e6).toFixed(2)} |`,
  );
  return [
    '| calls | heap used after GC (MB) |',
    '| ---: | ---: |',
    ...rows,
    '',
    `Growth over the second half: ${growthPerCall(sample).toFixed(3)} B/call; outcomes: ${JSON.stringify(sample.outcomes)}`,
  ].join('\n');
}

const calls = Number(process.argv[2] ?? 5_000_000);
if (process.argv[1]?.endsWith('soak.js') && Number.isInteger(calls) && calls > 0) {
  const samples = Number(process.argv[3] ?? 25);
  const sample = await soak(calls, samples, (done, heapUsed) =>
    process.stderr.write(`${done} calls: ${(heapUsed / 1e6).toFixed(2)} MB\n`),
  );
  process.stderr.write(`${soakReport(sample)}\n`);
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}
