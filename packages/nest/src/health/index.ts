/**
 * @toolshield/nest/health: `@nestjs/terminus` readiness and liveness checks for applications
 * serving toolshield tools. A separate entry point, so applications without terminus never
 * load it.
 *
 * @packageDocumentation
 */
export {
  ToolShieldHealthIndicator,
  type ToolShieldHealthDetails,
} from './toolshield.health-indicator.js';
export type { ToolShieldReadinessOptions } from './readiness-options.js';
