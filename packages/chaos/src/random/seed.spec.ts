import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createRuleRandomStreams } from './random-stream.js';
import { deriveSeed } from './seed.js';

describe('deriveSeed', () => {
  it('is a pure function of the run seed and the stream name', () => {
    fc.assert(
      fc.property(fc.integer(), fc.string(), (seed, name) => {
        const derived = deriveSeed(seed, name);
        expect(deriveSeed(seed, name)).toBe(derived);
        expect(Number.isInteger(derived) && derived >= 0 && derived < 2 ** 32).toBe(true);
      }),
    );
  });

  it('gives different names and different seeds different streams', () => {
    expect(deriveSeed(42, 'latency')).not.toBe(deriveSeed(42, 'reset'));
    expect(deriveSeed(42, 'latency')).not.toBe(deriveSeed(43, 'latency'));
  });
});

describe('createRuleRandomStreams', () => {
  it('replays the same numbers for the same seed, in [0, 1)', () => {
    const draw = (seed: number) => {
      const streams = createRuleRandomStreams(seed);
      return Array.from({ length: 20 }, () => streams.selection());
    };
    const first = draw(7);
    expect(draw(7)).toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(draw(8)).not.toEqual(first);
  });

  it('keeps the selection stream independent of how much the value stream is used', () => {
    const quiet = createRuleRandomStreams(1);
    const busy = createRuleRandomStreams(1);
    const fromQuiet = [quiet.selection(), quiet.selection()];
    busy.values();
    busy.values();
    busy.values();
    expect([busy.selection(), busy.selection()]).toEqual(fromQuiet);
    expect(createRuleRandomStreams(1).values()).not.toBe(fromQuiet[0]);
  });
});
