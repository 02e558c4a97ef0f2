/**
 * @toolshield/nest/health: a `@nestjs/terminus` health indicator for toolshield's circuit
 * breakers. A separate entry point, so applications without terminus never load it.
 *
 * @packageDocumentation
 */
export {
  ToolShieldHealthIndicator,
  type ToolShieldHealthDetails,
} from './toolshield.health-indicator.js';
