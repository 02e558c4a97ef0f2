import { Module, type DynamicModule } from '@nestjs/common';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { ToolShieldTelemetryModule } from '@toolshield/nest/telemetry';
import { MetricsController } from './metrics.controller.js';
import type { AppTelemetry } from './start-telemetry.js';

/**
 * The service's telemetry: toolshield's spans and metrics through the SDK that
 * {@link startTelemetry} registered, and `GET /metrics` when it has a Prometheus reader.
 * Without a started SDK it records nothing and costs nothing.
 */
@Module({})
export class AppTelemetryModule {
  static forRoot(telemetry?: AppTelemetry): DynamicModule {
    const prometheus = telemetry?.prometheus;
    return {
      module: AppTelemetryModule,
      imports: [ToolShieldTelemetryModule.forRoot()],
      controllers: prometheus ? [MetricsController] : [],
      providers: prometheus ? [{ provide: PrometheusExporter, useValue: prometheus }] : [],
    };
  }
}
