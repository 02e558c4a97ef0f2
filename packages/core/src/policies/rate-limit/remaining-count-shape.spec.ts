import { describe, expect, it } from '@jest/globals';
import { RemainingCountWatch } from './remaining-count-shape.js';

describe('RemainingCountWatch', () => {
  it('tells a bucket by its count creeping up many times a second', () => {
    const watch = new RemainingCountWatch();
    [3, 2, 3, 2, 3, 2, 3, 2, 3].forEach((remaining, index) =>
      watch.observe(remaining, 10, index * 20),
    );
    expect(watch.shape).toBe('bucket');
    expect(watch.windowMs).toBeUndefined();
  });

  it('tells a window by its count refilled at once, a second apart, and its length to the second', () => {
    const watch = new RemainingCountWatch();
    for (let at = 0; at < 3_100; at += 20)
      watch.observe(Math.max(0, 49 - (at % 1_000) / 20), 50, at + 3);
    expect(watch.shape).toBe('window');
    expect(watch.windowMs).toBe(1_000);
  });

  it('knows nothing from a count that only falls, nor from one reordered answer', () => {
    const watch = new RemainingCountWatch();
    [40, 39, 38, 39, 37, 36].forEach((remaining, index) =>
      watch.observe(remaining, 50, index * 20),
    );
    expect(watch.shape).toBe('unknown');
  });

  it('measures how fast the count moved over the last second, once it spans half a second', () => {
    const watch = new RemainingCountWatch();
    watch.observe(10, 10, 0);
    expect(watch.trendPerSecond(0)).toBeUndefined();
    watch.observe(5, 10, 500);
    expect(watch.trendPerSecond(500)).toBe(-10);
  });
});
