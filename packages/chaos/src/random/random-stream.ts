import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * A source of uniform numbers in `[0, 1)`.
 *
 * @publicApi
 */
export type RandomSource = () => number;

/**
 * Two independent deterministic streams for one rule: `selection` decides whether a call is
 * injected (one draw per matched call), `values` feeds the fault (latency samples, ...), so
 * a fault that draws more or fewer numbers never shifts which calls are selected.
 * xoroshiro128+ from pure-rand; `values` starts 2^64 steps further on (a jump).
 */
export interface RuleRandomStreams {
  readonly selection: RandomSource;
  readonly values: RandomSource;
}

/** A deterministic {@link RandomSource} (xoroshiro128+) for one seed. */
export function createRandomSource(seed: number): RandomSource {
  const generator = xoroshiro128plus(seed);
  return () => uniformFloat64(generator);
}

/** Creates the {@link RuleRandomStreams} of one seed. */
export function createRuleRandomStreams(seed: number): RuleRandomStreams {
  const selection = xoroshiro128plus(seed);
  const values = selection.clone();
  values.jump();
  return {
    selection: () => uniformFloat64(selection),
    values: () => uniformFloat64(values),
  };
}
