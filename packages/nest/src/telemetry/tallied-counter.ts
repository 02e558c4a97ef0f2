import type { Attributes, Meter, MetricOptions } from '@opentelemetry/api';

/** One attribute set's running total in a {@link TalliedCounter}. @internal */
export interface Tally {
  readonly attributes: Attributes;
  value: number;
}

/**
 * A monotonic counter tallied in-process and reported when metrics are collected (an
 * OpenTelemetry observable counter): adding to a {@link Tally} is a field update instead of an
 * SDK measurement, which hashes its attributes on every call. Exported values are the same
 * cumulative sums a synchronous counter would give.
 *
 * @internal
 */
export class TalliedCounter {
  private readonly tallies = new Map<string, Tally>();

  constructor(meter: Meter, name: string, options: MetricOptions) {
    meter.createObservableCounter(name, options).addCallback((result) => {
      for (const tally of this.tallies.values()) result.observe(tally.value, tally.attributes);
    });
  }

  /**
   * The tally of the attribute set `key` names (the attribute values joined); `attributes`
   * builds that set the first time only. Keep the tally to add to it without a lookup.
   */
  tally(key: string, attributes: () => Attributes): Tally {
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { attributes: attributes(), value: 0 };
      this.tallies.set(key, tally);
    }
    return tally;
  }

  /** Adds `value` to the tally of `key` (see {@link TalliedCounter.tally}). */
  add(value: number, key: string, attributes: () => Attributes): void {
    this.tally(key, attributes).value += value;
  }
}
