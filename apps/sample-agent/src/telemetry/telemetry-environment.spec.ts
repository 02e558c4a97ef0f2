import { describe, expect, it } from '@jest/globals';
import { telemetrySettings } from './telemetry-environment.js';

describe('telemetrySettings', () => {
  it('serves Prometheus metrics by default, and OTLP only with an endpoint', () => {
    expect(telemetrySettings({})).toEqual({
      enabled: true,
      prometheus: true,
      serviceName: 'toolshield-sample-agent',
    });
    expect(
      telemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_SERVICE_NAME: 'agents',
        PROMETHEUS: 'OFF',
      }),
    ).toEqual({
      enabled: true,
      prometheus: false,
      otlpEndpoint: 'http://127.0.0.1:4318',
      serviceName: 'agents',
    });
  });

  it('switches everything off with OTEL_SDK_DISABLED=true', () => {
    expect(
      telemetrySettings({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }),
    ).toEqual({ enabled: false, prometheus: false, serviceName: 'toolshield-sample-agent' });
  });

  it.each([
    [{ PROMETHEUS: 'no' }, /PROMETHEUS must be one of on, off; got "no"/],
    [{ OTEL_SDK_DISABLED: '1' }, /OTEL_SDK_DISABLED must be one of true, false; got "1"/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be a URL/],
  ])('names the variable whose value it cannot use: %j', (env, message) => {
    expect(() => telemetrySettings(env)).toThrow(message);
  });
});
