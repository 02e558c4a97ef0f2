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
