import { createNoopMeter, metrics, ProxyTracerProvider, trace } from '@opentelemetry/api';

/**
 * Whether an SDK registered a global tracer provider. The API's global provider is a proxy
 * that hands out no-op tracers until an SDK gives it a delegate.
 *
 * @internal
 */
export function isTracingRegistered(): boolean {
  const provider = trace.getTracerProvider();
  return (
    !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('probe') !== undefined
  );
}

/**
 * Whether an SDK registered a global meter provider (the unregistered one hands out no-op
 * meters).
 *
 * @internal
 */
export function isMetricsRegistered(): boolean {
  return !(metrics.getMeter('probe') instanceof createNoopMeter().constructor);
}
