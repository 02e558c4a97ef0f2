import type { CircuitState, ToolEvent } from '@toolshield/core/events';

/** How far back the breaker strip of `GET /api/tool-health` reaches. */
export const BREAKER_HISTORY_MS = 5 * 60_000;
/** Latency percentiles are taken over each tool's latest calls, this many. */
const LATENCY_SAMPLES = 200;

/** One breaker change, for the health panel's strip. */
export interface BreakerChange {
  readonly at: number;
  readonly key: string;
  readonly from: CircuitState;
  readonly to: CircuitState;
}

/** One tool's health since the service started, as `GET /api/tool-health` lists it. */
export interface ToolHealthReport {
  readonly tool: string;
  readonly calls: number;
  readonly succeeded: number;
  /** Succeeded calls over finished ones, 0..1 (`null` before the first). */
  readonly successShare: number | null;
  /** Over the latest calls; `null` before the first. */
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
  readonly retries: number;
  /** Failed calls by error type. */
  readonly failures: Readonly<Record<string, number>>;
  /** The breaker's changes within {@link BREAKER_HISTORY_MS}, oldest first. */
  readonly breakerChanges: readonly BreakerChange[];
  /** The current rate of its client-side rate limiter, calls per second, once it changed. */
  readonly rate?: number;
}

interface Tally {
  calls: number;
  succeeded: number;
  retries: number;
  durations: number[];
  failures: Record<string, number>;
  breakerChanges: BreakerChange[];
  rateKey?: string;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

/**
 * Each tool's health from the executor's events: calls, success share, p50/p95 latency,
 * retries, failures by type, its breaker's recent changes and its limiter's current rate.
 */
export class ToolHealthTracker {
  private readonly tools = new Map<string, Tally>();
  private readonly rates = new Map<string, number>();

  record(event: ToolEvent): void {
    if (event.type === 'rate_limit.changed') {
      this.rates.set(event.key, event.rate);
      return;
    }
    const tally = this.tally(event.tool);
    switch (event.type) {
      case 'call.started':
        tally.calls += 1;
        return;
      case 'retry.scheduled':
        tally.retries += 1;
        return;
      case 'call.succeeded':
        tally.succeeded += 1;
        return this.duration(tally, event.result.metadata.durationMs);
      case 'call.failed':
        tally.failures[event.failure.errorType] =
          (tally.failures[event.failure.errorType] ?? 0) + 1;
        return this.duration(tally, event.failure.metadata.durationMs);
      case 'breaker.state_changed':
        tally.breakerChanges.push({ at: event.at, key: event.key, from: event.from, to: event.to });
        return;
      case 'rate_limit.waiting':
      case 'rate_limit.refused':
        tally.rateKey = event.key;
        return;
      default:
        return;
    }
  }

  /** Every tool that was called, or whose breaker changed, by name. */
  report(now: number): ToolHealthReport[] {
    return [...this.tools.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tool, tally]) => {
        tally.breakerChanges = tally.breakerChanges.filter(
          (change) => change.at >= now - BREAKER_HISTORY_MS,
        );
        const finished = tally.succeeded + Object.values(tally.failures).reduce((a, b) => a + b, 0);
        const sorted = [...tally.durations].sort((a, b) => a - b);
        const rate = tally.rateKey === undefined ? undefined : this.rates.get(tally.rateKey);
        return {
          tool,
          calls: tally.calls,
          succeeded: tally.succeeded,
          successShare: finished === 0 ? null : tally.succeeded / finished,
          p50Ms: percentile(sorted, 50),
          p95Ms: percentile(sorted, 95),
          retries: tally.retries,
          failures: { ...tally.failures },
          breakerChanges: [...tally.breakerChanges],
          ...(rate === undefined ? {} : { rate }),
        };
      });
  }

  private tally(tool: string): Tally {
    let tally = this.tools.get(tool);
    if (!tally) {
      tally = {
        calls: 0,
        succeeded: 0,
        retries: 0,
        durations: [],
        failures: {},
        breakerChanges: [],
      };
      this.tools.set(tool, tally);
    }
    return tally;
  }

  private duration(tally: Tally, ms: number): void {
    tally.durations.push(ms);
    if (tally.durations.length > LATENCY_SAMPLES) tally.durations.shift();
  }
}
