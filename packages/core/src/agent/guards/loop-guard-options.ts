/**
 * Limits that end a run gracefully. Every limit is inclusive: `maxSteps: 20` allows 20 model
 * requests. `Infinity` switches a limit off.
 *
 * @publicApi
 */
export interface LoopGuardOptions {
  /** Model requests per run; default 20. */
  readonly maxSteps?: number;
  /** Failed calls in a row (a success resets the count); default 5. */
  readonly maxConsecutiveFailures?: number;
  /** Failures of the same tool with the same arguments; default 3. */
  readonly maxRepeatedFailures?: number;
  /** Tool calls per run; default 50. */
  readonly maxCallsPerRun?: number;
  /** Calls per tool and run: one limit for every tool, or per tool name; default none. */
  readonly maxCallsPerTool?: number | Readonly<Record<string, number>>;
}
