/**
 * What the sample agent's telemetry costs per tool call: the same tool through `ToolExecutor`
 * with telemetry off (the module imported, no SDK), with the OpenTelemetry metrics SDK and
 * the Prometheus exporter the service uses (`/metrics`), and with spans added (a batch
 * processor whose exporter drops them). Side by side in one process; method in rounds.ts.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { loadavg } from 'node:os';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { ToolCallRequest } from '@toolshield/core';
import { ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import {
  ToolShieldTelemetry,
  ToolShieldTelemetryModule,
  type ToolShieldTelemetryOptions,
} from '@toolshield/nest/telemetry';
import { BenchTools } from './fixtures.js';
import { timeRows } from './rounds.js';
import { median, ratio, us } from './stats.js';

/** An exporter that drops every span: the cost of recording them, not of shipping them. */
const DROP: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

function module(options: ToolShieldTelemetryOptions): DynamicModule {
  return {
    module: class TelemetryCostModule {},
    imports: [
      ToolShieldModule.forRoot({ isGlobal: true }),
      ToolShieldTelemetryModule.forRoot(options),
    ],
    providers: [BenchTools],
  };
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const apps: INestApplicationContext[] = [];
async function executor(options: ToolShieldTelemetryOptions, recording: boolean) {
  const app = await NestFactory.createApplicationContext(module(options), { logger: false });
  apps.push(app);
  if (app.get(ToolShieldTelemetry).active !== recording)
    throw new Error(`telemetry ${recording ? 'is not' : 'is'} recording`);
  return app.get(ToolExecutor);
}

const prometheus = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
const meterProvider = new MeterProvider({ readers: [prometheus] });
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: DROP })],
});
const off = await executor({}, false);
const metrics = await executor({ meterProvider }, true);
const traced = await executor({ meterProvider, tracerProvider }, true);
const request = {
  id: 'call_bench',
  name: 'lookup',
  arguments: '{"city":"Paris"}',
} as ToolCallRequest;

const { results, ratioTo } = await timeRows(
  [
    {
      id: 'off',
      label: 'telemetry off (module imported, no SDK)',
      once: () => off.execute(request),
    },
    {
      id: 'prometheus',
      label: 'metrics SDK + Prometheus exporter (the service default)',
      once: () => metrics.execute(request),
    },
    {
      id: 'traces',
      label: 'the same + spans (call and attempt, batch processor)',
      once: () => traced.execute(request),
    },
  ],
  log,
);
// A scrape, so the Prometheus reader's collection has something to serialise.
const scraped = await prometheus.collect();
if (scraped.resourceMetrics.scopeMetrics.length === 0) throw new Error('no metrics were recorded');
for (const app of apps) await app.close();
await Promise.all([meterProvider.shutdown(), tracerProvider.shutdown()]);

const ratios = ratioTo('off');
const roundsOf = (id: string) => results.find((row) => row.id === id)?.rounds ?? [];
/** What a row adds to `off`, taken within each round (side by side), median over rounds. */
const addedBy = (id: string) =>
  median(roundsOf(id).map((value, round) => value - (roundsOf('off')[round] ?? Number.NaN)));
const added = addedBy('prometheus');
process.stdout.write(
  [
    '',
    '### Telemetry cost per tool call',
    '',
    '| row | p50 per call (µs) | range over rounds | vs off |',
    '|---|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.label} | ${us(row.p50)} | ${us(row.p50Min)}–${us(row.p50Max)} | ${ratio(ratios[row.id] ?? Number.NaN)} |`,
    ),
    '',
    `Added by the Prometheus metrics: ${us(added)} µs per call (goal ≤ 2 µs: ${added <= 2 ? 'met' : 'NOT met'}); with spans: ${us(addedBy('traces'))} µs (within each round, median over rounds; load average ${loadavg()[0]?.toFixed(1)})`,
    '',
  ].join('\n'),
);
