import { Module, type DynamicModule } from '@nestjs/common';
import type { ToolShieldTelemetryOptions } from './telemetry-options.interface.js';
import { ToolShieldTelemetryModuleBase } from './telemetry.module-definition.js';
import { ToolShieldTelemetry } from './toolshield-telemetry.service.js';

/**
 * OpenTelemetry for toolshield: a span per tool call (`execute_tool {tool}`, the GenAI
 * conventions' tool-execution span) with a child per attempt, and metrics for call duration,
 * calls by outcome, attempts and their durations, retries, breaker states and transitions,
 * rate-limit waits and rates, and injected faults, all recorded off `ToolExecutor.events$`. Import
 * it from `@toolshield/nest/telemetry` (it needs `@opentelemetry/api`, an optional peer)
 * next to a global `ToolShieldModule`. Without a registered SDK or given providers it records
 * nothing and costs nothing.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldTelemetryModule.forRoot()],
 * })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({ providers: [ToolShieldTelemetry], exports: [ToolShieldTelemetry] })
export class ToolShieldTelemetryModule extends ToolShieldTelemetryModuleBase {
  /** Registers the module; every option has a default, so `forRoot()` alone works. */
  static override forRoot(options: ToolShieldTelemetryOptions = {}): DynamicModule {
    return super.forRoot(options);
  }
}
