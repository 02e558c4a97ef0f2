import type { DynamicModule, Type } from '@nestjs/common';
import type { TestingModuleBuilder } from '@nestjs/testing';
import type { ExecuteOptions } from '@toolshield/nest';
import type { ChaosRule } from '../selection/chaos-rule.js';

/**
 * One kind of call a scenario makes: the tool, and its arguments (a value, or a function of
 * the call's index and the seed, for varied payloads).
 *
 * @publicApi
 */
export interface ChaosScenarioCall {
  readonly tool: string;
  /** An object or a JSON string, as a model would send it (default `{}`). */
  readonly arguments?: unknown;
  /** Computes the arguments per call instead; wins over `arguments`. */
  readonly argumentsFor?: (index: number, seed: number) => unknown;
}

/**
 * What the harness does to the application, once per seed: enable chaos with `rules`, make
 * `count` calls (taking `calls` in turn) with at most `concurrency` in flight, in virtual
 * time, and check the invariants.
 *
 * @example
 * {
 *   name: 'search rate limited',
 *   rules: [{ tools: 'search', fault: rateLimit({ retryAfterSeconds: 30 }), probability: 0.3 }],
 *   calls: [{ tool: 'search', argumentsFor: (i) => ({ query: `q${i}` }) }],
 * }
 *
 * @publicApi
 */
export interface ChaosScenario {
  readonly name: string;
  readonly description?: string;
  readonly rules: readonly ChaosRule[];
  readonly calls: readonly ChaosScenarioCall[];
  /** Calls per seed (default 100). */
  readonly count?: number;
  /** Calls in flight at once (default 10). */
  readonly concurrency?: number;
  /** Passed to every `ToolExecutor.execute` (per-call timeout, retry overrides, metadata). */
  readonly execute?: Omit<ExecuteOptions, 'signal'>;
  /** The virtual time after which calls still running count as never settled (default 24 h). */
  readonly maxVirtualMs?: number;
}

/** A report format the harness writes. @publicApi */
export type ChaosReportFormat = 'json' | 'junit' | 'markdown';

/**
 * A harness run: the application module under test, its scenarios and seeds, and where the
 * reports go. This is what a `toolshield-chaos run <config>` module exports (as `default`).
 *
 * @example
 * export default {
 *   module: AppModule,
 *   scenarios: [flakySearch, rateLimitedSearch],
 *   seeds: 20,
 *   reports: { dir: 'reports/chaos', formats: ['json', 'junit', 'markdown'] },
 * } satisfies ChaosHarnessConfig;
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
