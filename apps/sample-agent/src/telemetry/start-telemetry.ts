import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { telemetrySettings, type TelemetryEnvironment } from './telemetry-environment.js';

/** The service's OpenTelemetry SDK, once started. */
export interface AppTelemetry {
  /** The reader `/metrics` serves, unless `PROMETHEUS=off`. */
  readonly prometheus?: PrometheusExporter;
  /** Flushes what is left and unregisters the global providers. */
  shutdown(): Promise<void>;
}

/** What a test adds to the SDK: span processors (an in-memory exporter's). */
export interface TelemetryExtras {
  readonly spanProcessors?: readonly SpanProcessor[];
}

/**
 * Starts the OpenTelemetry SDK for the service and registers it globally, before the Nest
 * application is created (as OpenTelemetry requires): metrics for a Prometheus scrape at
 * `/metrics` (served by the app's own HTTP server), and metrics and traces over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set. `@toolshield/nest/telemetry` and the run tracing find
 * the global providers. Traces are recorded only when something exports them.
 */
export function startTelemetry(
  env: TelemetryEnvironment,
  extras: TelemetryExtras = {},
): AppTelemetry {
  const settings = telemetrySettings(env);
  if (!settings.enabled) return { shutdown: async () => undefined };
  const resource = resourceFromAttributes({ 'service.name': settings.serviceName });
  const prometheus = settings.prometheus
    ? new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
    : undefined;
  const readers: MetricReader[] = prometheus ? [prometheus] : [];
  const spanProcessors = [...(extras.spanProcessors ?? [])];
  if (settings.otlpEndpoint) {
    readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
  }
  const meterProvider = readers.length > 0 ? new MeterProvider({ resource, readers }) : undefined;
  const tracerProvider =
    spanProcessors.length > 0 ? new TracerProvider({ resource, spanProcessors }) : undefined;
  if (meterProvider) metrics.setGlobalMeterProvider(meterProvider);
  if (tracerProvider) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(tracerProvider);
  }
  return {
    ...(prometheus ? { prometheus } : {}),
    shutdown: async () => {
      await Promise.all([meterProvider?.shutdown(), tracerProvider?.shutdown()]);
      metrics.disable();
      trace.disable();
      context.disable();
    },
  };
}
