import type { Clock } from '../clock/clock.js';
import type { ToolErrorType } from '../errors/tool-error-type.js';
import { SingleFlight } from './single-flight.js';
import { STALE_IF_ERROR_TYPES } from './stale-answer.js';
import type { ToolCacheEntry, ToolCacheStore } from './tool-cache-store.js';

/**
 * How long a read-only tool's answers are reused. Only for tools that are idempotent and
 * read-only: a cached answer stands in for a call that did not run.
 *
 * @publicApi
 */
export interface ToolCacheOptions {
  /** How long an answer is fresh, in ms: calls with the same arguments get it without a call. */
  readonly ttlMs: number;
  /**
   * How long past `ttlMs` an answer may still stand in, marked stale with its age, when the
   * call fails for a transient reason (timeout, network, upstream unavailable, rate limited,
   * breaker open). Default 0: never.
   */
  readonly staleIfErrorMs?: number;
}

/**
 * How a call met the cache: `hit` (a fresh answer, no call), `miss` (the call ran), `joined`
 * (an identical call was running: it shared that one's answer), `stale` (the call failed and
 * an older answer stood in).
 *
 * @publicApi
 */
export type ToolCacheLookup = 'hit' | 'miss' | 'joined' | 'stale';

/** A call's answer through the cache. @publicApi */
export interface ToolCacheAnswer {
  readonly value: unknown;
  readonly lookup: ToolCacheLookup;
  /** Age of a cached answer (`hit`, `stale`), in ms. */
  readonly ageMs?: number;
  /** Why a stale answer stood in. */
  readonly staleBecause?: ToolErrorType;
}

/**
 * The cache of read-only tools' answers: fresh entries answer at once, identical concurrent
 * calls share one execution (single flight), and a failed call for a transient reason gets an
 * entry up to `staleIfErrorMs` past its freshness. Keys come from {@link toolCacheKey}.
 *
 * @publicApi
 */
export class ToolResultCache {
  private readonly flights = new SingleFlight<unknown>();

  constructor(
    private readonly store: ToolCacheStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The answer of the call keyed `key`: cached, joined, or `run()`'s (then stored).
   *
   * @param errorTypeOf classifies what `run()` threw, to tell whether a stale answer may stand in
   * @param onLookup hears how each call met the cache (`stale` after the `miss` or `joined`)
   */
  async answer(
    key: string,
    options: ToolCacheOptions,
    run: () => Promise<unknown>,
    errorTypeOf: (error: unknown) => ToolErrorType,
    onLookup?: (lookup: ToolCacheLookup) => void,
  ): Promise<ToolCacheAnswer> {
    const entry = await this.read(key);
    const fresh = entry && this.clock.now() - entry.storedAt < options.ttlMs;
    if (entry && fresh) {
      onLookup?.('hit');
      return { value: entry.value, lookup: 'hit', ageMs: this.clock.now() - entry.storedAt };
    }
    const lookup = this.flights.has(key) ? 'joined' : 'miss';
    onLookup?.(lookup);
    try {
      const value = await this.flights.run(key, () => this.runAndStore(key, options, run));
      return { value, lookup };
    } catch (error) {
      const because = errorTypeOf(error);
      // The call it joined was cancelled by its own caller, not this one's: run it anew.
      if (lookup === 'joined' && because === 'cancelled') {
        return this.answer(key, options, run, errorTypeOf, onLookup);
      }
      const stale = entry && this.staleAnswer(entry, options, because);
      if (stale === undefined) throw error;
      onLookup?.('stale');
      return stale;
    }
  }

  private async runAndStore(
    key: string,
    options: ToolCacheOptions,
    run: () => Promise<unknown>,
  ): Promise<unknown> {
    const value = await run();
    const keepMs = options.ttlMs + (options.staleIfErrorMs ?? 0);
    try {
      await this.store.set(key, { value, storedAt: this.clock.now() }, keepMs);
    } catch {
      // A store that cannot write costs the next call a miss, never this call its answer.
    }
    return value;
  }

  private staleAnswer(
    entry: ToolCacheEntry,
    options: ToolCacheOptions,
    because: ToolErrorType,
  ): ToolCacheAnswer | undefined {
    const ageMs = this.clock.now() - entry.storedAt;
    const window = options.ttlMs + (options.staleIfErrorMs ?? 0);
    if (ageMs > window || !STALE_IF_ERROR_TYPES.includes(because)) return undefined;
    return { value: entry.value, lookup: 'stale', ageMs, staleBecause: because };
  }

  private async read(key: string): Promise<ToolCacheEntry | undefined> {
    try {
      return await this.store.get(key);
    } catch {
      return undefined; // a store that cannot read is a miss
    }
  }
}

/**
 * What a result's `metadata.cache` says: how the call met the cache, and for a cached answer
 * its age and, when stale, the failure it stands in for.
 *
 * @publicApi
 */
export type ToolCacheMetadata = Pick<ToolCacheAnswer, 'lookup' | 'ageMs' | 'staleBecause'>;

/** The `metadata.cache` of an answer (no absent fields). @internal */
export function toolCacheMetadata(answer: ToolCacheAnswer): ToolCacheMetadata {
  return {
    lookup: answer.lookup,
    ...(answer.ageMs === undefined ? {} : { ageMs: answer.ageMs }),
    ...(answer.staleBecause === undefined ? {} : { staleBecause: answer.staleBecause }),
  };
}
