import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * Options of `ToolShieldTelemetryModule.forRoot()`.
 *
 * @publicApi
 */
export interface ToolShieldTelemetryOptions {
  /** Where spans go (default: the global provider, when an SDK registered one). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go (default: the global provider, when an SDK registered one). */
  readonly meterProvider?: MeterProvider;
  /** A child span per attempt under each call's span (default `true`). */
  readonly attemptSpans?: boolean;
}
