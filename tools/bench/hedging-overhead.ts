/**
 * What hedging costs a call that does not need it: an idempotent, read-only tool whose upstream
 * answers long before the hedge delay, with `hedging` against the same tool without, in an
 * application with no enhancers of its own and in one with a global pass-through interceptor.
 * Hedging's work on such a call: the `Hedger`'s promise and its timer (armed, then cleared),
 * the attempt's own `ToolCallContext` and signal, and one `AsyncLocalStorage` scope read back
 * by `@ToolCall()`. Method: see rounds.ts; the ratio is taken within each
 * round, then the median over rounds. No hedge may be sent during the run (checked).
 *
 * Runs inside `npm run bench`, or alone: `node tools/dist/bench/hedging-overhead.js`.
 */
import 'reflect-metadata';
import { Injectable, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { ToolCallContext, ToolOutcome } from '@toolshield/core';
import { Tool, ToolArgs, ToolCall, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { fileURLToPath } from 'node:url';
import { PassThroughInterceptor, lookupBody, type LookupArgs } from './fixtures.js';
import { timeRows, type Row, type RowResult } from './rounds.js';
import { ratio, us } from './stats.js';

const readOnly = { idempotent: true, annotations: { readOnlyHint: true } } as const;

@Injectable()
class HedgeableTools {
  @Tool({ name: 'read', description: 'Reads; not hedged.', ...readOnly })
  async read(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({
    name: 'read_hedged',
    description: 'Reads; hedged after 1 s, every call may hedge.',
    ...readOnly,
    hedging: { delayMs: 1_000, maxExtraShare: 1 },
  })
  async readHedged(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }
}

/** The application shapes measured: no enhancers of its own, or one global interceptor. */
type AppShape = 'plain' | 'intercepted';

/** The tools alone, or with a global interceptor of the app's. */
function hedgeableModule(shape: AppShape): DynamicModule {
  const providers: Provider[] = [HedgeableTools];
  if (shape === 'intercepted')
    providers.push({ provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor });
  @Module({})
  class HedgeableModule {}
  return { module: HedgeableModule, imports: [ToolShieldModule.forRoot({})], providers };
}

export interface HedgingOverheadReport {
  readonly rows: RowResult[];
  /** Hedged / not hedged in each app, ratios within each round, median over rounds. */
  readonly ratios: Readonly<Record<AppShape, number>>;
}

export async function runHedgingOverhead(
  log: (line: string) => void,
): Promise<HedgingOverheadReport> {
  const json = JSON.stringify({ city: 'Paris' });
  const rows: Row[] = [];
  const closers: (() => Promise<void>)[] = [];
  let hedges = 0;
  for (const shape of ['plain', 'intercepted'] as const) {
    const app = await NestFactory.createApplicationContext(hedgeableModule(shape), {
      logger: false,
    });
    await app.init();
    closers.push(() => app.close());
    const executor = app.get(ToolExecutor);
    executor.events$.subscribe((event) => {
      if (event.type === 'hedge.sent') hedges++;
    });
    const call = (name: string) => () =>
      executor.execute({ id: 'call_bench', name, arguments: json }).then(succeeded);
    const appLabel = shape === 'plain' ? 'app without enhancers' : 'app with a global interceptor';
    rows.push(
      {
        id: `${shape}-plain`,
        label: `${appLabel}: read-only tool, no hedging`,
        once: call('read'),
      },
      {
        id: `${shape}-hedged`,
        label: `${appLabel}: the same tool hedged after 1 s (the upstream answers first)`,
        once: call('read_hedged'),
      },
    );
  }
  for (const row of rows) await row.once();
  const { results, ratioTo } = await timeRows(rows, log);
  for (const close of closers) await close();
  if (hedges > 0)
    throw new Error(`${hedges} hedges were sent: the rows measured more than overhead`);
  return {
    rows: results,
    ratios: {
      plain: ratioTo('plain-plain')['plain-hedged'] as number,
      intercepted: ratioTo('intercepted-plain')['intercepted-hedged'] as number,
    },
  };
}

function succeeded(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.success) throw new Error(`Benchmark call failed: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The report as a Markdown table. */
export function hedgingOverheadTable(report: HedgingOverheadReport): string {
  const against: Record<string, number | undefined> = {
    'plain-hedged': report.ratios.plain,
    'intercepted-hedged': report.ratios.intercepted,
  };
  return [
    'Hedging on a call that answers before the hedge delay (idempotent, read-only tool):',
    '',
    '| Row | median µs/call | spread of round medians | × the same tool without hedging |',
    '|---|---:|---:|---:|',
    ...report.rows.map((row) => {
      const vs = against[row.id];
      return `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} | ${vs === undefined ? '' : ratio(vs)} |`;
    }),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  process.stdout.write(`${hedgingOverheadTable(await runHedgingOverhead(log))}\n`);
}
