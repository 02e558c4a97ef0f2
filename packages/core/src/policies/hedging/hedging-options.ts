/**
 * Hedging: when an attempt is slow, a second one starts; the first result wins and the other
 * is aborted. Only for tools that are idempotent and read-only: both attempts may run.
 *
 * @example
 * // A second attempt once the first has taken longer than 95 % of recent calls did,
 * // for at most one call in ten:
 * { delayMs: 'p95', maxExtraShare: 0.1 }
 * @publicApi
 */
export interface HedgingOptions {
  /** When the second attempt starts: a fixed delay in ms, or the tool's observed p95 (default `'p95'`). */
  readonly delayMs?: number | 'p95';
  /** Extra attempts allowed, as a share of calls (default 0.1: one call in ten may hedge). */
  readonly maxExtraShare?: number;
  /** Calls observed before `'p95'` is trusted; until then no call hedges (default 20). */
  readonly minSamples?: number;
}

/** The defaults of {@link HedgingOptions}. @publicApi */
export const DEFAULT_HEDGING = {
  delayMs: 'p95',
  maxExtraShare: 0.1,
  minSamples: 20,
} as const;
