import type { Clock } from '../clock/clock.js';
import { systemClock } from '../clock/system-clock.js';
import type { ToolCacheEntry, ToolCacheStore } from './tool-cache-store.js';

/** Options of {@link InMemoryToolCacheStore}. @publicApi */
export interface InMemoryToolCacheStoreOptions {
  /** Most entries kept; past it the least recently used goes (default 1,000). */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

/**
 * The default {@link ToolCacheStore}: one instance's memory, bounded, least recently used
 * entries evicted first, each forgotten after its `keepMs`.
 *
 * @publicApi
 */
export class InMemoryToolCacheStore implements ToolCacheStore {
  /** In order of use, least recent first (a Map keeps insertion order). */
  private readonly entries = new Map<
    string,
    { readonly entry: ToolCacheEntry; readonly until: number }
  >();
  private readonly maxEntries: number;
  private readonly clock: Clock;

  constructor(options: InMemoryToolCacheStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1_000;
    this.clock = options.clock ?? systemClock;
  }

  /** Entries held now, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): ToolCacheEntry | undefined {
    const held = this.entries.get(key);
    if (held === undefined) return undefined;
    this.entries.delete(key);
    if (held.until <= this.clock.now()) return undefined;
    this.entries.set(key, held);
    return held.entry;
  }

  set(key: string, entry: ToolCacheEntry, keepMs: number): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { entry, until: this.clock.now() + keepMs });
  }
}
