/**
 * The result cache of read-only tools, as `npm run bench` measures it:
 *
 * - single flight: 50 identical calls made at once reach the upstream once;
 * - a hit against a plain success: a cached tool answering from a fresh entry, against a
 *   trivial tool without a cache (same app, same executor; see rounds.ts for the method, the
 *   ratio is taken within each round, then the median over rounds);
 * - an outage: with the upstream dead (every request refused) and the breaker open, a
 *   read-only tool with `staleIfErrorMs` answers every call within the window, stale.
 *
 * Runs inside `npm run bench`, or alone: `node tools/dist/bench/result-cache.js`.
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ToolOutcome } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolArgs, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { timeRows } from './rounds.js';
import { ratio, us } from './stats.js';

const readOnly = { idempotent: true, annotations: { readOnlyHint: true } } as const;
const CONCURRENT = 50;
const OUTAGE_CALLS = 1_000;

@Injectable()
class ReadTools {
  upstreamCalls = 0;
  upstreamDead = false;
  upstreamDelayMs = 0;

  @Tool({ name: 'plain', description: 'A trivial tool without a cache.' })
  plain(@ToolArgs() args: { city: string }) {
    return { city: args.city, tempC: 21 };
  }

  @Tool({
    name: 'cached',
    description: 'A read-only tool with a cache.',
    ...readOnly,
    breaker: { volumeThreshold: 5, errorThresholdPercentage: 50, resetTimeoutMs: 30_000 },
    cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 },
  })
  async cached(@ToolArgs() args: { city: string }) {
    this.upstreamCalls += 1;
    if (this.upstreamDelayMs > 0) await delay(this.upstreamDelayMs);
    if (this.upstreamDead) {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    }
    return { city: args.city, tempC: 21 };
  }
}

async function app(clock?: VirtualClock) {
  @Module({
    imports: [
      ToolShieldModule.forRoot({
        ...(clock ? { clock } : {}),
        defaults: { retry: { maxRetries: 0 } },
      }),
    ],
    providers: [ReadTools],
  })
  class BenchModule {}
  const context = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  await context.init();
  return { context, executor: context.get(ToolExecutor), tools: context.get(ReadTools) };
}

export interface ResultCacheReport {
  readonly singleFlight: {
    readonly calls: number;
    readonly upstreamCalls: number;
    readonly joined: number;
  };
  readonly hit: { readonly plainP50: number; readonly hitP50: number; readonly ratio: number };
  readonly outage: {
    readonly calls: number;
    readonly answered: number;
    readonly stale: number;
    readonly upstreamCalls: number;
  };
}

export async function runResultCache(log: (line: string) => void): Promise<ResultCacheReport> {
  log(
    'result cache: single flight, hit against a plain success, an outage with the breaker open ...',
  );
  const args = JSON.stringify({ city: 'Paris' });

  // Single flight: 50 identical calls at once, the upstream taking 20 ms.
  const flight = await app();
  flight.tools.upstreamDelayMs = 20;
  const outcomes = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) =>
      flight.executor.execute({ id: `c${i}`, name: 'cached', arguments: args }),
    ),
  );
  const singleFlight = {
    calls: CONCURRENT,
    upstreamCalls: flight.tools.upstreamCalls,
    joined: outcomes.filter((o) => (o.metadata.cache as { lookup?: string })?.lookup === 'joined')
      .length,
  };
  await flight.context.close();

  // A hit against a plain success, in one app.
  const timed = await app();
  const call = (name: string) => () =>
    timed.executor.execute({ id: 'call_bench', name, arguments: args }).then(succeeded);
  await call('cached')();
  const { results, ratioTo } = await timeRows(
    [
      { id: 'plain', label: 'trivial tool, no cache (plain success path)', once: call('plain') },
      {
        id: 'hit',
        label: 'read-only tool answered from a fresh cache entry',
        once: call('cached'),
      },
    ],
    log,
  );
  await timed.context.close();
  const p50 = (id: string) => results.find((row) => row.id === id)?.p50 ?? Number.NaN;

  // The outage: an answer cached, then the upstream dead, past the TTL, within staleIfErrorMs.
  const clock = new VirtualClock();
  const down = await app(clock);
  succeeded(await down.executor.execute({ id: 'first', name: 'cached', arguments: args }));
  await clock.advanceBy(120_000);
  down.tools.upstreamDead = true;
  down.tools.upstreamCalls = 0;
  let answered = 0;
  let stale = 0;
  for (let i = 0; i < OUTAGE_CALLS; i++) {
    const outcome = await down.executor.execute({ id: `o${i}`, name: 'cached', arguments: args });
    if (outcome.success) answered++;
    if ((outcome.metadata.cache as { lookup?: string } | undefined)?.lookup === 'stale') stale++;
  }
  const outage = { calls: OUTAGE_CALLS, answered, stale, upstreamCalls: down.tools.upstreamCalls };
  await down.context.close();
  return {
    singleFlight,
    hit: { plainP50: p50('plain'), hitP50: p50('hit'), ratio: ratioTo('plain')['hit'] as number },
    outage,
  };
}

function succeeded(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.success) throw new Error(`Benchmark call failed: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The report as Markdown. */
export function resultCacheTable(report: ResultCacheReport): string {
  const { singleFlight, hit, outage } = report;
  const share = (outage.answered / outage.calls) * 100;
  return [
    'Result cache of read-only tools:',
    '',
    '| Row | measured | target |',
    '|---|---:|---|',
    `| ${singleFlight.calls} identical concurrent calls (upstream 20 ms) | ${singleFlight.upstreamCalls} upstream call, ${singleFlight.joined} joined | 1 upstream call: ${singleFlight.upstreamCalls === 1 ? 'met' : 'NOT met'} |`,
    `| a hit vs a plain success of a trivial tool (median µs/call) | ${us(hit.hitP50)} vs ${us(hit.plainP50)}: ${ratio(hit.ratio)} | ≤ 1.00×: ${hit.ratio <= 1 ? 'met' : 'NOT met'} |`,
    `| upstream dead, breaker open, within staleIfErrorMs (${outage.calls} calls) | ${share.toFixed(1)} % answered (${outage.stale} stale), ${outage.upstreamCalls} upstream calls | 100 %: ${outage.answered === outage.calls ? 'met' : 'NOT met'} |`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  process.stdout.write(`${resultCacheTable(await runResultCache(log))}\n`);
}
