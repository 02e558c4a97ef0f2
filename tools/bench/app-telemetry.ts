/**
 * What the sample agent's telemetry costs per tool call: the same tool through `ToolExecutor`
 * with telemetry off (the module imported, no SDK), with the OpenTelemetry metrics SDK and
 * the Prometheus exporter the service uses (`/metrics`), and with spans added (a batch
 * processor whose exporter drops them). Two measures: side by side in one process (method in
 * rounds.ts), and each configuration alone in processes of its own, taken in turns
 * (telemetry-cost-child.ts), as a deployed service runs one application.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { INestApplicationContext } from '@nestjs/common';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { ToolShieldTelemetryOptions } from '@toolshield/nest/telemetry';
import { timeRows } from './rounds.js';
import { median, ratio, us } from './stats.js';
import { prometheusMetrics, REQUEST, telemetryApp } from './telemetry-cost-app.js';

/** An exporter that drops every span: the cost of recording them, not of shipping them. */
const DROP: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};
/** Processes per configuration in the one-application measure, taken in turns. */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const apps: INestApplicationContext[] = [];
async function executor(options: ToolShieldTelemetryOptions, recording: boolean) {
  const { app, executor } = await telemetryApp(options, recording);
  apps.push(app);
  return executor;
}

const { meterProvider, prometheus } = prometheusMetrics();
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: DROP })],
});
const off = await executor({}, false);
const metrics = await executor({ meterProvider }, true);
const traced = await executor({ meterProvider, tracerProvider }, true);
const request = REQUEST;

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

/**
 * Each configuration alone in its process, `off` and `prometheus` in turns: per process the
 * median of its rounds after the first two (warm-up), then the median over processes.
 */
function alonePerCallNs(): { off: number; prometheus: number } {
  const child = fileURLToPath(new URL('./telemetry-cost-child.js', import.meta.url));
  const samples = { off: [] as number[], prometheus: [] as number[] };
  for (let i = 0; i < PROCESSES; i++) {
    for (const config of ['off', 'prometheus'] as const) {
      const rounds = JSON.parse(
        execFileSync(process.execPath, [child, config], { encoding: 'utf8' }),
      ) as number[];
      const perCallNs = median(rounds.slice(2));
      samples[config].push(perCallNs);
      log(`alone ${i + 1}/${PROCESSES}: ${config} ${us(perCallNs / 1_000)} µs`);
    }
  }
  return { off: median(samples.off), prometheus: median(samples.prometheus) };
}
const alone = alonePerCallNs();
const addedAlone = (alone.prometheus - alone.off) / 1_000;

const ratios = ratioTo('off');
const roundsOf = (id: string) => results.find((row) => row.id === id)?.rounds ?? [];
/** What a row adds to `off`, taken within each round (side by side), median over rounds. */
const addedBy = (id: string) =>
  median(roundsOf(id).map((value, round) => value - (roundsOf('off')[round] ?? Number.NaN)));
const added = addedBy('prometheus');
const verdict = (value: number) => (value <= 2 ? 'met' : 'NOT met');
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
    `Added by the Prometheus metrics, side by side: ${us(added)} µs per call (goal ≤ 2 µs: ${verdict(added)}); with spans: ${us(addedBy('traces'))} µs (within each round, median over rounds).`,
    `Each alone in ${PROCESSES} processes of its own: off ${us(alone.off / 1_000)} µs, Prometheus ${us(alone.prometheus / 1_000)} µs per call, ${us(addedAlone)} µs added (goal ≤ 2 µs: ${verdict(addedAlone)}). Load average ${loadavg()[0]?.toFixed(1)}.`,
    '',
  ].join('\n'),
);
