/**
 * The application the telemetry-cost benchmarks time: the `lookup` tool through `ToolExecutor`,
 * with `ToolShieldTelemetryModule` given the providers of one configuration.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { ToolCallRequest } from '@toolshield/core';
import { ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import {
  ToolShieldTelemetry,
  ToolShieldTelemetryModule,
  type ToolShieldTelemetryOptions,
} from '@toolshield/nest/telemetry';
import { BenchTools } from './fixtures.js';

/** The call every row makes. */
export const REQUEST = {
  id: 'call_bench',
  name: 'lookup',
  arguments: '{"city":"Paris"}',
} as ToolCallRequest;

/** The metrics SDK as the service wires it: the Prometheus exporter as its reader. */
export function prometheusMetrics(): {
  meterProvider: MeterProvider;
  prometheus: PrometheusExporter;
} {
  const prometheus = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  return { meterProvider: new MeterProvider({ readers: [prometheus] }), prometheus };
}

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

/** An application with `options`, checked to record (or not) as `recording` says. */
export async function telemetryApp(
  options: ToolShieldTelemetryOptions,
  recording: boolean,
): Promise<{ app: INestApplicationContext; executor: ToolExecutor }> {
  const app = await NestFactory.createApplicationContext(module(options), { logger: false });
  if (app.get(ToolShieldTelemetry).active !== recording)
    throw new Error(`telemetry ${recording ? 'is not' : 'is'} recording`);
  return { app, executor: app.get(ToolExecutor) };
}
