/**
 * @toolshield/chaos: fault injection for LLM tools, in any async function or (through the
 * Nest chaos module) any `@Tool()`, plus the harness' reports, invariants and Jest matchers.
 * The harness itself (it needs `@nestjs/testing`) is in `@toolshield/chaos/harness`.
 *
 * @packageDocumentation
 */
export * from './marking/chaos-marker.js';
export type { RandomSource } from './random/random-stream.js';
export { deriveSeed } from './random/seed.js';

export type { ChaosFault, FaultInvocation } from './faults/chaos-fault.js';
export * from './faults/latency.fault.js';
export * from './faults/hang.fault.js';
export * from './faults/http-error.js';
export type { RetryAfterOptions } from './faults/retry-after-headers.js';
export * from './faults/rate-limit.fault.js';
export * from './faults/upstream-error.fault.js';
export {
  createFetchFailedError,
  createNodeNetworkError,
  type NodeNetworkErrorCode,
} from './faults/node-network-error.js';
export * from './faults/network-error.fault.js';
export * from './faults/thrown-value.fault.js';
export * from './faults/malformed-output.fault.js';
export * from './faults/fail-first.fault.js';
export * from './faults/error.fault.js';

export type { ChaosRule } from './selection/chaos-rule.js';
export { compileToolMatcher } from './selection/tool-matcher.js';

export * from './runtime/production-guard.js';
export type { ChaosCounters } from './runtime/chaos-counters.js';
export type {
  ChaosInjectionEvent,
  ChaosInjectionListener,
} from './runtime/chaos-injection-event.js';
export * from './runtime/chaos-controller.js';
export * from './runtime/inject-chaos.js';
export * from './runtime/with-chaos.js';

export type { ChaosModuleOptions } from './nest/chaos-module-options.interface.js';
export { ChaosModule, ChaosModuleBase } from './nest/chaos.module.js';
export { ChaosService } from './nest/chaos.service.js';
export { ChaosInterceptor } from './nest/chaos.interceptor.js';
export { Chaos } from './nest/chaos.decorator.js';

export * from './jest/matchers.js';

export type { RecordedAttempt, RecordedCall, RecordedRun } from './harness/recorded-run.js';
export * from './harness/invariants.js';
export * from './harness/chaos-report.js';
export * from './harness/json-report.js';
export * from './harness/junit-report.js';
export * from './harness/markdown-report.js';
export type { LatencyPercentiles } from './harness/outcome-breakdown.js';
export type {
  ChaosReportFormat,
  ChaosScenario,
  ChaosScenarioCall,
} from './harness/chaos-scenario.js';
export * from './harness/write-chaos-reports.js';
