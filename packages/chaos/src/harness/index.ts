/**
 * `@toolshield/chaos/harness`: the chaos harness, which compiles your module as a Nest testing
 * module, and therefore needs `@nestjs/testing` (an optional peer dependency). The main
 * entry (faults, the controller, `ChaosModule`, reports, invariants, matchers) does not, so
 * runtime injection works without any test package.
 *
 * @packageDocumentation
 */
export type { ChaosHarnessConfig } from './chaos-harness-config.js';
export type { ChaosRule } from '../selection/chaos-rule.js';
export type { ChaosFault, FaultInvocation } from '../faults/chaos-fault.js';
export type { LatencyPercentiles } from './outcome-breakdown.js';
export type { InvariantName, InvariantViolation } from './invariants.js';
export type { RandomSource } from '../random/random-stream.js';
export type {
  ChaosRunReport,
  ChaosStatus,
  ObservedSample,
  ScenarioReport,
  SeedRunReport,
} from './chaos-report.js';
export type { ChaosReportFormat, ChaosScenario, ChaosScenarioCall } from './chaos-scenario.js';
export * from './chaos-app-start.error.js';
export * from './run-chaos-harness.js';
export * from '../jest/run-chaos-harness-in-jest.js';
export * from '../cli/run-chaos-cli.js';
export * from '../cli/exit-codes.js';
