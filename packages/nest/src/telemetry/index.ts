/**
 * @toolshield/nest/telemetry: OpenTelemetry spans and metrics for tool calls. A separate
 * entry point, so applications without `@opentelemetry/api` never load it.
 *
 * @packageDocumentation
 */
export { ToolShieldTelemetryModule } from './toolshield-telemetry.module.js';
export { ToolShieldTelemetryModuleBase } from './telemetry.module-definition.js';
export { ToolShieldTelemetry } from './toolshield-telemetry.service.js';
export type { ToolShieldTelemetryOptions } from './telemetry-options.interface.js';
export {
  EXECUTE_TOOL_OPERATION,
  TOOLSHIELD_INSTRUMENTATION_SCOPE,
  ToolShieldAttributes,
  ToolShieldMetrics,
  UNKNOWN_TOOL_LABEL,
} from './telemetry.constants.js';
