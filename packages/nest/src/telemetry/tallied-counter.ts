import type { Attributes, Meter, MetricOptions } from '@opentelemetry/api';

/**
 * A monotonic counter tallied in-process and reported when metrics are collected (an
 * OpenTelemetry observable counter): adding costs a string key and a `Map` lookup instead of
 * an SDK measurement, which hashes its attributes on every call. Exported values are the same
 * cumulative sums a synchronous counter would give.
 *
 * @internal
 */
export class TalliedCounter {
  private readonly tallies = new Map<string, { readonly attributes: Attributes; value: number }>();

  constructor(meter: Meter, name: string, options: MetricOptions) {
    meter.createObservableCounter(name, options).addCallback((result) => {
      for (const tally of this.tallies.values()) result.observe(tally.value, tally.attributes);
    });
  }

  /**
   * Adds `value` under the attribute set `attributes` builds; `key` names that set (the
   * attribute values joined), so `attributes` runs once per set.
   */
  add(value: number, key: string, attributes: () => Attributes): void {
    const tally = this.tallies.get(key);
    if (tally) tally.value += value;
    else this.tallies.set(key, { attributes: attributes(), value });
  }
}
