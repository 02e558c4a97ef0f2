import { AbortSource } from '../../clock/abort-source.js';
import type { AbortSignalLike } from '../../clock/abort-signal-like.js';
import type { Clock } from '../../clock/clock.js';
import { CancelledError } from '../../errors/cancelled.error.js';
import { assertOptions } from '../../options/assert-options.js';
import { HEDGING_OPTIONS_RULE } from './hedging-options.rule.js';
import { DEFAULT_HEDGING, HEDGING_QUANTILES, type HedgingOptions } from './hedging-options.js';
import { LatencyWindow } from './latency-window.js';

/** One attempt of a hedged call: it gets its own signal, aborted when the other attempt wins. @publicApi */
export type HedgedAttempt<T> = (signal: AbortSignal, hedge: boolean) => Promise<T>;

/**
 * One attempt of a hedged call given its cancellation as an {@link AbortSource}, whose real
 * `AbortSignal` is made only if the attempt reads it. @publicApi
 */
export type HedgedSourceAttempt<T> = (source: AbortSource, hedge: boolean) => Promise<T>;

/** How one call runs through {@link Hedger.run}. @publicApi */
export interface HedgedRunOptions {
  /** The caller's signal: aborting it aborts every attempt. */
  readonly signal?: AbortSignalLike;
  /**
   * Asked when the second attempt is due and the extra-attempt budget allows it: `false`
   * skips it (no free slot at the upstream's rate limit, say). Default: always.
   */
  readonly mayHedge?: () => boolean;
  /** Told when the second attempt starts, with how long the first had run by then. */
  readonly onHedge?: (afterMs: number) => void;
  /** Told when the call ends with a success, and whether the second attempt gave it. */
  readonly onWinner?: (hedge: boolean) => void;
}

/** The abort reason of an attempt that lost the race. */
const LOST = new CancelledError('Another attempt of this call answered first (hedging).');

/** Counts of a hedger, for reports. @publicApi */
export interface HedgerStats {
  readonly calls: number;
  readonly hedges: number;
  /** Calls the second attempt won. */
  readonly hedgeWins: number;
}

/**
 * Runs a call as one attempt and, when that attempt is still running after the hedging
 * delay (fixed, or the p95 of the tool's recent attempts), a second one. The extra-attempt
 * budget grows by `maxExtraShare` with each call: a second attempt due while it is spent
 * waits for the next call's share (the oldest waiting first) rather than being dropped, and
 * is dropped only when its call ends first. The first to succeed wins and the other's signal
 * is aborted. A failure of one attempt waits for the other; when both fail, the call fails
 * with the error of the attempt that failed last. When the caller's signal aborts, both are
 * aborted.
 *
 * @example
 * const hedger = new Hedger({ delayMs: 'p95', maxExtraShare: 0.1 }, clock);
 * const page = await hedger.run((signal) => fetch(url, { signal }), { signal: callerSignal });
 * @publicApi
 */
export class Hedger {
  private readonly delay: number | undefined;
  private readonly maxExtraShare: number;
  private readonly minSamples: number;
  private readonly latencies: LatencyWindow;
  private calls = 0;
  private hedges = 0;
  private hedgeWins = 0;
  /**
   * Calls whose second attempt is due but over the budget, oldest first: each resolves a
   * promise its call awaits, so the attempt starts in the call's own async context.
   */
  private readonly waiting = new Set<() => void>();
  /** Waiting second attempts released, about to start: their budget is taken. */
  private released = 0;

  constructor(
    options: HedgingOptions,
    private readonly clock: Clock,
  ) {
    assertOptions(HEDGING_OPTIONS_RULE, options, 'HedgingOptions');
    const delay = options.delayMs ?? DEFAULT_HEDGING.delayMs;
    this.delay = typeof delay === 'number' ? delay : undefined;
    this.latencies = new LatencyWindow(
      256,
      typeof delay === 'number' ? 0.95 : HEDGING_QUANTILES[delay],
    );
    this.maxExtraShare = options.maxExtraShare ?? DEFAULT_HEDGING.maxExtraShare;
    this.minSamples = options.minSamples ?? DEFAULT_HEDGING.minSamples;
  }

  /** Counts so far. */
  stats(): HedgerStats {
    return { calls: this.calls, hedges: this.hedges, hedgeWins: this.hedgeWins };
  }

  /** The delay after which a call would hedge now (undefined: too few calls seen to say). */
  hedgeDelay(): number | undefined {
    if (this.delay !== undefined) return this.delay;
    return this.latencies.length < this.minSamples ? undefined : this.latencies.percentile();
  }

  /** Runs one call: its first attempt now, a second one when it is slow (see the class). */
  run<T>(attempt: HedgedAttempt<T>, options: HedgedRunOptions = {}): Promise<T> {
    return this.runWithAbortSources((source, hedge) => attempt(source.signal, hedge), options);
  }

  /**
   * {@link Hedger.run} for attempts that take their cancellation as an {@link AbortSource}:
   * no `AbortController` is made for an attempt that never reads its signal.
   */
  runWithAbortSources<T>(
    attempt: HedgedSourceAttempt<T>,
    options: HedgedRunOptions = {},
  ): Promise<T> {
    const { signal } = options;
    this.calls++;
    if (this.waiting.size > 0) this.releaseWaiting();
    const started = this.clock.now();
    const delay = this.hedgeDelay();
    return new Promise<T>((resolve, reject) => {
      const sources: AbortSource[] = [];
      let pending = 0;
      let settled = false;
      let cancelHedge = (): void => undefined;
      let release: (() => void) | undefined;
      /** Ends the call: the hedge timer and every attempt but the winner are cancelled. */
      const finish = (winner?: AbortSource): void => {
        settled = true;
        cancelHedge();
        if (release) this.waiting.delete(release);
        signal?.removeEventListener('abort', onCallerAbort);
        for (const source of sources) {
          if (source !== winner) source.abort(LOST);
        }
      };
      const onCallerAbort = (): void => {
        for (const source of sources) source.abort(signal?.reason);
      };
      const launch = (hedge: boolean): void => {
        const source = new AbortSource();
        sources.push(source);
        pending++;
        attempt(source, hedge).then(
          (value) => {
            pending--;
            if (settled) return;
            // The first attempt's time; when the hedge won, it was still running (at least).
            this.latencies.record(this.clock.now() - started, hedge);
            if (hedge) this.hedgeWins++;
            finish(source);
            options.onWinner?.(hedge);
            resolve(value);
          },
          (error: unknown) => {
            pending--;
            if (settled || pending > 0) return;
            finish();
            reject(error);
          },
        );
      };
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      signal?.addEventListener('abort', onCallerAbort, { once: true });
      launch(false);
      if (delay === undefined) return;
      cancelHedge = this.clock.setTimer(() => {
        if (settled) return;
        const hedge = (): void => {
          if (settled || options.mayHedge?.() === false) return;
          this.hedges++;
          options.onHedge?.(this.clock.now() - started);
          launch(true);
        };
        if (this.hasBudget()) return hedge();
        void new Promise<void>((resolve) => {
          release = resolve;
          this.waiting.add(resolve);
        }).then(() => {
          this.released--;
          hedge();
        });
      }, delay);
    });
  }

  /** Whether one more extra attempt keeps hedges within the share of calls. */
  private hasBudget(): boolean {
    return this.hedges + this.released + 1 <= this.maxExtraShare * this.calls;
  }

  /** Starts the waiting second attempts the budget now allows, oldest first. */
  private releaseWaiting(): void {
    for (const release of this.waiting) {
      if (!this.hasBudget()) return;
      this.waiting.delete(release);
      this.released++;
      release();
    }
  }
}
