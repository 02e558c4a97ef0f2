/**
 * Success-path cost per call of toolshield against its baselines and peers, side by side in one
 * process. Every row runs the same trivial async tool body; rows differ only in the wrapper.
 *
 * Method: see rounds.ts. Reported: the median over rounds of each round's median (per call),
 * the min–max of those round medians, the median round's p99 of batch means, and ratios taken
 * within each round, then the median over rounds.
 */
import { ExternalContextCreator, NestFactory, type ParamsFactory } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import type { ToolCallContext, ToolCallRequest, ToolOutcome } from '@toolshield/core';
import { ToolExecutor } from '@toolshield/nest';
import { ToolShieldTelemetry } from '@toolshield/nest/telemetry';
import {
  ConsecutiveBreaker,
  ExponentialBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleAll,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import CircuitBreaker from 'opossum';
import {
  BenchModule,
  BenchTools,
  FloorTools,
  InterceptedBenchModule,
  TelemetryBenchModule,
  bareNestCall,
  manyToolsModule,
  type LookupArgs,
} from './fixtures.js';
import { loadNestjsResilience } from './nestjs-resilience.js';
import { BATCH, ROUNDS, TIME_MS, timeRows, type Row, type RowResult } from './rounds.js';
import { ratio, us } from './stats.js';

export interface OverheadReport {
  readonly batch: number;
  readonly rounds: number;
  readonly timeMs: number;
  readonly rows: RowResult[];
  /** Ratios of row medians taken within each round, median over rounds. */
  readonly ratios: Record<string, Record<string, number>>;
  readonly skipped: Record<string, string>;
}

/** Maps `@ToolArgs()` (3) and `@ToolCall()` (6) as toolshield's params factory does. */
class ToolArgsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    return type === 3 ? args[0] : type === 6 ? args[1] : undefined;
  }
}

function request(name: string, args: unknown): ToolCallRequest {
  return { id: 'call_bench', name, arguments: args } as ToolCallRequest;
}

/** Fails the benchmark if a toolshield row is not on the success path. */
function succeeded(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.success) throw new Error(`Benchmark call failed: ${JSON.stringify(outcome)}`);
  return outcome;
}

export async function runOverhead(log: (line: string) => void): Promise<OverheadReport> {
  const closers: (() => unknown)[] = [];
  const skipped: Record<string, string> = {};
  /** Starts an application context for a row, closed when the benchmark ends. */
  const start = async (module: Type | DynamicModule): Promise<INestApplicationContext> => {
    const started = await NestFactory.createApplicationContext(module, { logger: false });
    await started.init();
    closers.push(() => started.close());
    return started;
  };
  const app = await start(BenchModule);
  const executor = app.get(ToolExecutor);
  const tools = app.get(BenchTools);

  // c where the application has a global interceptor of its own.
  const interceptedApp = await start(InterceptedBenchModule);
  const interceptedExecutor = interceptedApp.get(ToolExecutor);

  // c with the telemetry module imported but no OpenTelemetry SDK registered.
  const telemetryApp = await start(TelemetryBenchModule);
  if (telemetryApp.get(ToolShieldTelemetry).active)
    throw new Error('Telemetry is recording: an OpenTelemetry SDK is registered in the bench');
  const telemetryExecutor = telemetryApp.get(ToolExecutor);
  const args: LookupArgs = { city: 'Paris' };
  const json = JSON.stringify(args);
  const call = {
    callId: 'call_bench',
    toolName: 'lookup',
    attempt: 1,
    metadata: {},
    signal: new AbortController().signal,
  } as ToolCallContext;

  // b. A bare ExternalContextCreator pipeline with one pass-through interceptor.
  const contextCreator = app.get(ExternalContextCreator);
  const bareCall = bareNestCall(app);

  // b'. The Nest layers a default toolshield tool goes through, with pass-through interceptors.
  const floor = app.get(FloorTools);
  const floorCall = contextCreator.create(
    floor,
    Object.getPrototypeOf(floor).lookup,
    'lookup',
    ROUTE_ARGS_METADATA,
    new ToolArgsFactory(),
    undefined,
    undefined,
    undefined,
    'tool',
  ) as (args: unknown, call: unknown) => Promise<unknown>;

  // d. opossum alone, default options (its 10 s timeout included).
  const opossum = new CircuitBreaker((a: LookupArgs) => tools.lookup(a, call));
  closers.push(() => opossum.shutdown());

  // e. cockatiel retry(breaker(timeout)), generous settings.
  const cockatiel = wrap(
    retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }),
    circuitBreaker(handleAll, { halfOpenAfter: 10_000, breaker: new ConsecutiveBreaker(5) }),
    timeout(30_000, TimeoutStrategy.Aggressive),
  );

  // Scaling: the same tool shape in a 10-tool and a 1,000-tool application, round-robin.
  const scaled = async (count: number, cycle = count): Promise<() => Promise<unknown>> => {
    const scaledApp = await start(manyToolsModule(count));
    const scaledExecutor = scaledApp.get(ToolExecutor);
    const requests = Array.from({ length: count }, (_, i) => request(`tool_${i}`, json));
    for (const r of requests) succeeded(await scaledExecutor.execute(r)); // every breaker created
    let next = 0;
    return () => {
      const r = requests[next];
      next = next + 1 === cycle ? 0 : next + 1;
      return scaledExecutor.execute(r);
    };
  };

  const rows: Row[] = [
    {
      id: 'direct',
      label: 'a. direct method call (baseline)',
      once: () => tools.lookup(args, call),
    },
    {
      id: 'nest',
      label: 'b. bare Nest ExternalContextCreator + 1 pass-through interceptor',
      once: () => bareCall(args, call),
    },
    {
      id: 'nest-floor',
      label:
        "b'. Nest ECC + 2 pass-through interceptors + @ToolArgs/@ToolCall pipes (structural floor)",
      once: () => floorCall(args, call),
    },
    {
      id: 'ts-json',
      label: 'c. toolshield execute, default policies, JSON-string args',
      once: () => executor.execute(request('lookup', json)),
    },
    {
      id: 'ts-object',
      label: 'c. toolshield execute, default policies, object args',
      once: () => executor.execute(request('lookup', args)),
    },
    {
      id: 'ts-dto',
      label: 'c. toolshield execute, default policies, DTO-validated args',
      once: () => executor.execute(request('lookup_dto', json)),
    },
    {
      id: 'ts-idem',
      label: 'c. toolshield execute, idempotent (retry+breaker+timeout), JSON args',
      once: () => executor.execute(request('lookup_idempotent', json)),
    },
    {
      id: 'ts-intercepted',
      label:
        'c. toolshield execute, app with a global pass-through interceptor, default policies, JSON args',
      once: () => interceptedExecutor.execute(request('lookup', json)),
    },
    {
      id: 'ts-telemetry-off',
      label:
        'c. toolshield execute, default policies, JSON args, telemetry module imported, no OpenTelemetry SDK',
      once: () => telemetryExecutor.execute(request('lookup', json)),
    },
    { id: 'opossum', label: 'd. opossum fire (defaults)', once: () => opossum.fire(args) },
    {
      id: 'cockatiel',
      label: 'e. cockatiel wrap(retry, circuitBreaker, timeout)',
      once: () => cockatiel.execute(() => tools.lookup(args, call)),
    },
  ];

  const resilience = await loadNestjsResilience();
  if ('skipped' in resilience) {
    skipped['nestjs-resilience'] = resilience.skipped;
  } else {
    closers.push(() => resilience.close());
    rows.push({
      id: 'nestjs-resilience',
      label: `f. nestjs-resilience ${resilience.version} @UseResilience(retry, breaker, timeout)`,
      once: resilience.once,
    });
  }
  rows.push(
    {
      id: 'scale-10',
      label: 'scaling: execute on a 10-tool app (round-robin)',
      once: await scaled(10),
    },
    {
      id: 'scale-1000',
      label: 'scaling: execute on a 1,000-tool app (round-robin)',
      once: await scaled(1000),
    },
    {
      id: 'scale-1000-hot10',
      label: 'scaling: execute on the 1,000-tool app, 10 of its tools round-robin',
      once: await scaled(1000, 10),
    },
  );

  // Every row must work, and every toolshield row must be a success, before timing anything.
  for (const row of rows) {
    const value = await row.once();
    if (row.id.startsWith('ts-') || row.id.startsWith('scale-')) succeeded(value as ToolOutcome);
  }

  const { results, ratioTo } = await timeRows(rows, log);
  const ratios = {
    direct: ratioTo('direct'),
    nest: ratioTo('nest'),
    cockatiel: ratioTo('cockatiel'),
    'scale-10': ratioTo('scale-10'),
  };

  for (const close of closers.reverse()) await close();
  return { batch: BATCH, rounds: ROUNDS, timeMs: TIME_MS, rows: results, ratios, skipped };
}

export function overheadTable(report: OverheadReport): string {
  const lines = [
    '| Row | median µs/call | spread of round medians | p99 µs/call (batch means) | × direct | × bare Nest | × cockatiel |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of report.rows) {
    lines.push(
      `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} | ${us(row.p99)} | ${ratio(report.ratios.direct[row.id])} | ${ratio(report.ratios.nest[row.id])} | ${ratio(report.ratios.cockatiel[row.id])} |`,
    );
  }
  return lines.join('\n');
}
