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
  /**
   * When the second attempt starts: a fixed delay in ms, or a percentile of the tool's recent
   * call durations (default `'p95'`; `'p90'` hedges more calls and cuts more of the tail).
   */
  readonly delayMs?: number | HedgingPercentile;
  /**
   * Extra attempts allowed, as a share of calls (default 0.1: one call in ten may hedge). A
   * second attempt due while the share is spent waits for the next call's share.
   */
  readonly maxExtraShare?: number;
  /** Calls observed before `'p95'` is trusted; until then no call hedges (default 20). */
  readonly minSamples?: number;
}

/** The percentiles a hedging delay may follow. @publicApi */
export type HedgingPercentile = 'p90' | 'p95' | 'p99';

/** The quantile of each {@link HedgingPercentile}. @internal */
export const HEDGING_QUANTILES: Readonly<Record<HedgingPercentile, number>> = {
  p90: 0.9,
  p95: 0.95,
  p99: 0.99,
};

/** The defaults of {@link HedgingOptions}. @publicApi */
export const DEFAULT_HEDGING = {
  delayMs: 'p95' as HedgingPercentile,
  maxExtraShare: 0.1,
  minSamples: 20,
} as const;
