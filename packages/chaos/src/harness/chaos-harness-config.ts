import type { DynamicModule, Type } from '@nestjs/common';
import type { TestingModuleBuilder } from '@nestjs/testing';
import type { ChaosReportFormat, ChaosScenario } from './chaos-scenario.js';

/**
 * A harness run: the application module under test, its scenarios and seeds, and where the
 * reports go. This is what a `toolshield-chaos run <config>` module exports (as `default`). It lives in
 * the `@toolshield/chaos/harness` entry with the harness, which needs `@nestjs/testing`.
 *
 * @example
 * export default {
 *   module: AppModule,
 *   scenarios: [flakySearch, rateLimitedSearch],
 *   seeds: 20,
 *   reports: { dir: 'reports/chaos', formats: ['json', 'junit', 'markdown'] },
 * } satisfies ChaosHarnessConfig; // import type { ChaosHarnessConfig } from '@toolshield/chaos/harness'
 *
 * @publicApi
 */
export interface ChaosHarnessConfig {
  /** Your application's module; it must import `ToolShieldModule`. */
  readonly module: Type | DynamicModule;
  readonly scenarios: readonly ChaosScenario[];
  /** The seeds each scenario runs with, or how many (`20` means seeds 1 to 20). */
  readonly seeds: readonly number[] | number;
  /** Where reports are written (default: not written), and which (default: all three). */
  readonly reports?: { readonly dir: string; readonly formats?: readonly ChaosReportFormat[] };
  /** Adjusts the testing module before it compiles (override a provider, add one). */
  readonly configure?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Allow chaos although `NODE_ENV` is `production` (default `false`). */
  readonly allowInProduction?: boolean;
  /** Outcomes kept per seed run as samples (default 5). */
  readonly maxSamples?: number;
}
