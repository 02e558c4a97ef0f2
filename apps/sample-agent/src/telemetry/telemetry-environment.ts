/** The environment variables that configure the service's telemetry (OpenTelemetry's own names where it has one). */
export interface TelemetryEnvironment {
  /** `true`: no metrics, no traces, no `/metrics` (OpenTelemetry's switch). */
  readonly OTEL_SDK_DISABLED?: string;
  /** Also export metrics and traces over OTLP/HTTP to this collector. */
  readonly OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** `service.name` of the resource (default `toolshield-sample-agent`). */
  readonly OTEL_SERVICE_NAME?: string;
  /** `off`: no Prometheus endpoint at `/metrics` (default `on`). */
  readonly PROMETHEUS?: string;
}

/** What {@link telemetrySettings} reads from the environment. */
export interface TelemetrySettings {
  readonly enabled: boolean;
  readonly prometheus: boolean;
  readonly otlpEndpoint?: string;
  readonly serviceName: string;
}

function flag(env: TelemetryEnvironment, name: 'OTEL_SDK_DISABLED' | 'PROMETHEUS'): string {
  const value = env[name]?.trim().toLowerCase() ?? '';
  const allowed = name === 'PROMETHEUS' ? ['', 'on', 'off'] : ['', 'true', 'false'];
  if (!allowed.includes(value)) {
    throw new Error(
      `${name} must be one of ${allowed.filter(Boolean).join(', ')}; got ${JSON.stringify(env[name])}.`,
    );
  }
  return value;
}

/** The telemetry settings of `env`; an unknown value of a switch is an error naming it. */
export function telemetrySettings(env: TelemetryEnvironment): TelemetrySettings {
  const enabled = flag(env, 'OTEL_SDK_DISABLED') !== 'true';
  const otlpEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  if (otlpEndpoint !== undefined && !URL.canParse(otlpEndpoint)) {
    throw new Error(
      `OTEL_EXPORTER_OTLP_ENDPOINT must be a URL; got ${JSON.stringify(otlpEndpoint)}.`,
    );
  }
  return {
    enabled,
    prometheus: enabled && flag(env, 'PROMETHEUS') !== 'off',
    ...(enabled && otlpEndpoint ? { otlpEndpoint } : {}),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'toolshield-sample-agent',
  };
}
