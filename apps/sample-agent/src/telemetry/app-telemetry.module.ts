import { Module, type DynamicModule } from '@nestjs/common';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { ToolShieldTelemetryModule } from '@toolshield/nest/telemetry';
import { MetricsController } from './metrics.controller.js';
import type { AppTelemetry } from './start-telemetry.js';
import { ToolHealth, ToolHealthController } from './tool-health.controller.js';

/**
 * The service's telemetry: toolshield's spans and metrics through the SDK that
 * {@link startTelemetry} registered, and `GET /metrics` when it has a Prometheus reader
 * (without a started SDK they record nothing and cost nothing); the dashboard's tool health
 * (`GET /api/tool-health`).
 */
@Module({})
export class AppTelemetryModule {
  static forRoot(telemetry?: AppTelemetry): DynamicModule {
    const prometheus = telemetry?.prometheus;
    return {
      module: AppTelemetryModule,
      imports: [ToolShieldTelemetryModule.forRoot()],
      controllers: [ToolHealthController, ...(prometheus ? [MetricsController] : [])],
      providers: [
        ToolHealth,
        ...(prometheus ? [{ provide: PrometheusExporter, useValue: prometheus }] : []),
      ],
    };
  }
}
