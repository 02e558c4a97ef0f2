import type {
  ToolCallContext,
  OutputBudget,
  ToolCacheOptions,
  ToolCacheStore,
  TokenEstimator,
} from '@toolshield/core';

/**
 * The cache of a read-only tool (`@Tool({ cache })`): fresh answers reused for `ttlMs`,
 * identical concurrent calls sharing one run, and a stale answer, marked with its age, standing
 * in for a transient failure within `staleIfErrorMs`. Only for tools declared idempotent and
 * read-only (`idempotent: true`, `annotations.readOnlyHint: true`); startup refuses it on others.
 *
 * @example
 * @Tool({
 *   description: 'Searches the web.',
 *   idempotent: true,
 *   annotations: { readOnlyHint: true },
 *   cache: { ttlMs: 60_000, staleIfErrorMs: 600_000, scope: (call) => String(call.metadata.userId) },
 * })
 * @publicApi
 */
export interface ToolCacheSettings extends ToolCacheOptions {
  /**
   * A value of the call the entries are kept apart by (a user, a tenant), so one user's answer
   * never reaches another. A call it gives no value for (`undefined` or `''`) is not cached.
   * Default: one cache for every caller.
   */
  readonly scope?: (call: ToolCallContext, args: unknown) => string | undefined;
}

/**
 * The built-in tool that reads the rest of a cut output (`read_tool_output`), kept under the
 * handle its note names.
 *
 * @publicApi
 */
export interface ReadMoreToolOptions {
  /** How long whole outputs stay readable, in ms (default 10 minutes). */
  readonly keepMs?: number;
  /** Most whole outputs kept at once, the oldest dropped first (default 100). */
  readonly maxEntries?: number;
}

/**
 * The module's options about results: where cached answers are kept, how tokens are counted,
 * and the read-more tool. The budget itself is `defaults.output` and `@Tool({ output })`.
 *
 * @publicApi
 */
export interface ToolResultModuleOptions {
  /** Where cached answers are kept (default: in memory, 1,000 entries, least recently used out). */
  readonly cacheStore?: ToolCacheStore;
  /** Counts tokens for `maxTokens` budgets (default `estimateTokens`: UTF-8 bytes / 4). */
  readonly estimateTokens?: TokenEstimator;
  /**
   * Registers `read_tool_output`, which reads a cut output's rest by the handle in its note
   * (`true` or its options). Off by default: cut outputs are then not kept.
   */
  readonly readMoreTool?: boolean | ReadMoreToolOptions;
}

/** A tool's output budget (`@Tool({ output })`), or `false` for none. @publicApi */
export type ToolOutputOption = OutputBudget | false;
