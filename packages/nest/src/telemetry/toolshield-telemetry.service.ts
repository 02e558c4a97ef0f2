import { ResultMetrics } from './result-metrics.js';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { metrics, trace } from '@opentelemetry/api';
import type { Clock } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import type { Subscription } from 'rxjs';
import { ToolExecutor } from '../execution/tool-executor.service.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';
import { isMetricsRegistered, isTracingRegistered } from './otel-registration.js';
import type { ToolShieldTelemetryOptions } from './telemetry-options.interface.js';
import { TOOLSHIELD_INSTRUMENTATION_SCOPE } from './telemetry.constants.js';
import { TOOLSHIELD_TELEMETRY_OPTIONS } from './telemetry.module-definition.js';
import { ToolCallTracer } from './tool-call-tracer.js';
import { ResilienceMetrics } from './resilience-metrics.js';
import { ToolMetrics } from './tool-metrics.js';
import { toolNameLabel } from './tool-name-label.js';

const NO_PROVIDER =
  'No OpenTelemetry tracer or meter provider is registered, so tool calls are not recorded: start the OpenTelemetry SDK before creating the application, or pass ToolShieldTelemetryModule.forRoot({ tracerProvider, meterProvider }).';

/**
 * Records `ToolExecutor.events$` as OpenTelemetry spans and metrics. It looks for providers
 * once, at bootstrap: the ones given in the options, else the global ones an SDK registered.
 * With neither, it does not even subscribe, so tool calls pay nothing for it, and says so in
 * one warning. Start the SDK before creating the application, as OpenTelemetry requires anyway.
 *
 * @publicApi
 */
@Injectable()
export class ToolShieldTelemetry implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  private tracer?: ToolCallTracer;
  private readonly logger = new Logger(ToolShieldTelemetry.name);

  /** Nest injects the dependencies. @internal */
  constructor(
    private readonly executor: ToolExecutor,
    private readonly registry: ToolRegistry,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @Inject(TOOLSHIELD_TELEMETRY_OPTIONS) private readonly options: ToolShieldTelemetryOptions,
  ) {}

  /** Whether events are recorded (a tracer or meter provider was found at bootstrap). */
  get active(): boolean {
    return this.subscription !== undefined;
  }

  onApplicationBootstrap(): void {
    const handlers: ((event: ToolEvent) => void)[] = [];
    const label = toolNameLabel(this.registry);
    const tracerProvider =
      this.options.tracerProvider ??
      (isTracingRegistered() ? trace.getTracerProvider() : undefined);
    if (tracerProvider) {
      const tracer = new ToolCallTracer(
        tracerProvider.getTracer(TOOLSHIELD_INSTRUMENTATION_SCOPE),
        this.options.attemptSpans ?? true,
        label,
      );
      this.tracer = tracer;
      handlers.push((event) => tracer.handle(event));
    }
    const meterProvider =
      this.options.meterProvider ??
      (isMetricsRegistered() ? metrics.getMeterProvider() : undefined);
    if (meterProvider) {
      const meter = meterProvider.getMeter(TOOLSHIELD_INSTRUMENTATION_SCOPE);
      const recorder = new ToolMetrics(meter, label);
      const resilience = new ResilienceMetrics(meter, label);
      const results = new ResultMetrics(meter, label);
      handlers.push(
        (event) => recorder.handle(event),
        (event) => resilience.handle(event),
        (event) => results.handle(event),
      );
    }
    if (handlers.length === 0) {
      this.logger.warn(NO_PROVIDER);
      return;
    }
    this.subscription = this.executor.events$.subscribe((event) => {
      for (const handle of handlers) handle(event);
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.tracer?.endAll(this.clock.now());
  }
}
