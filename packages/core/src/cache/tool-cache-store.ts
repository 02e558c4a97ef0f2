/**
 * One cached answer of a read-only tool.
 *
 * @publicApi
 */
export interface ToolCacheEntry {
  /** The tool's output (plain JSON). */
  readonly value: unknown;
  /** Clock time it was stored at, in ms since the epoch. */
  readonly storedAt: number;
}

/**
 * Where cached tool answers are kept: in memory by default ({@link InMemoryToolCacheStore}),
 * or shared by several instances (`RedisToolCacheStore` of `@toolshield/redis`). A store that
 * fails must not fail the call: the cache treats a rejected `get` as a miss and ignores a
 * rejected `set`.
 *
 * @publicApi
 */
export interface ToolCacheStore {
  /** The entry under `key`, or undefined. May answer synchronously. */
  get(key: string): ToolCacheEntry | undefined | Promise<ToolCacheEntry | undefined>;
  /** Stores `entry` under `key`, to be forgotten after `keepMs`. */
  set(key: string, entry: ToolCacheEntry, keepMs: number): void | Promise<void>;
}
