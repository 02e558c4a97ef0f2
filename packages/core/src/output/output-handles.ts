import type { Clock } from '../clock/clock.js';
import { systemClock } from '../clock/system-clock.js';

/** Options of {@link OutputHandleStore}. @publicApi */
export interface OutputHandleStoreOptions {
  /** How long a whole output stays readable, in ms (default 10 minutes). */
  readonly keepMs?: number;
  /** Most outputs kept at once; the oldest goes first (default 100). */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

/**
 * Keeps the whole outputs of cut results for a while, under handles the model reads them by
 * (`out_…`). In memory, bounded: past `maxEntries` the oldest goes, after `keepMs` each expires.
 *
 * @publicApi
 */
export class OutputHandleStore {
  private readonly entries = new Map<string, { readonly value: unknown; readonly until: number }>();
  private readonly keepMs: number;
  private readonly maxEntries: number;
  private readonly clock: Clock;

  constructor(options: OutputHandleStoreOptions = {}) {
    this.keepMs = options.keepMs ?? 600_000;
    this.maxEntries = options.maxEntries ?? 100;
    this.clock = options.clock ?? systemClock;
  }

  /** Keeps `value` and returns its handle. */
  keep(value: unknown): string {
    this.dropExpired();
    while (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    const handle = `out_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
    this.entries.set(handle, { value, until: this.clock.now() + this.keepMs });
    return handle;
  }

  /** The output kept under `handle`, or undefined when unknown or expired. */
  get(handle: string): unknown {
    const entry = this.entries.get(handle);
    if (entry === undefined) return undefined;
    if (entry.until > this.clock.now()) return entry.value;
    this.entries.delete(handle);
    return undefined;
  }

  private dropExpired(): void {
    const now = this.clock.now();
    for (const [handle, entry] of this.entries) {
      if (entry.until > now) break; // kept in order of expiry: the rest are later
      this.entries.delete(handle);
    }
  }
}
