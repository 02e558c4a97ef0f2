import { describe, expect, it } from '@jest/globals';
import { CeilingProbe } from './ceiling-probe.js';

describe('CeilingProbe', () => {
  const probe = (...slowDowns: [top: number, sinceLastMs: number, moved?: boolean][]) => {
    const ceiling = new CeilingProbe();
    for (const [top, sinceLastMs, moved = false] of slowDowns)
      ceiling.slowedDown(top, top * 0.95, sinceLastMs, { refillMoved: moved });
    return ceiling;
  };

  it('is forgotten (infinite) until the first slow-down, and probes nothing past its floor', () => {
    const ceiling = new CeilingProbe();
    expect(ceiling.value).toBe(Number.POSITIVE_INFINITY);
    expect(ceiling.passedBy(1e9)).toBe(false);
  });

  it('returns to 99 % of the ceiling, lingers, then probes past it ever faster', () => {
    const ceiling = probe([20, 0]);
    expect(ceiling.rateAfter(0, 0.2)).toBeCloseTo(19);
    // Found afresh, it counts as confirmed once: half the growth.
    const k = Math.cbrt((1 - 0.95 / 0.99) / 0.1);
    expect(ceiling.rateAfter(k, 0.2)).toBeCloseTo(19.8);
    expect(ceiling.rateAfter(k + 2, 0.2) - ceiling.rateAfter(k + 1, 0.2)).toBeGreaterThan(
      ceiling.rateAfter(k + 1, 0.2) - ceiling.rateAfter(k, 0.2),
    );
  });

  it('probes more slowly the more often the same ceiling was confirmed, up to a limit', () => {
    const often = (times: number) =>
      probe(...Array.from({ length: times }, () => [20, 100] as [number, number])).rateAfter(
        3,
        0.2,
      );
    expect(often(2)).toBeLessThan(often(1));
    expect(often(3)).toBeLessThan(often(2));
    expect(often(9)).toBeCloseTo(often(20));
    // A confirmation 10 s later counts half as much.
    expect(probe([20, 0], [20, 10_000]).rateAfter(3, 0.2)).toBeGreaterThan(often(2));
  });

  it('starts afresh, probing twice as fast, when a precise Retry-After showed the refill moved', () => {
    const moved = probe([20, 0], [20, 100], [20, 1_000, true]);
    expect(moved.refillMoved).toBe(true);
    // No confirmation and twice the growth; the first ceiling was confirmed once (half).
    expect(moved.rateAfter(3, 0.2)).toBeCloseTo(probe([20, 0]).rateAfter(3, 0.8));
  });

  it('tells a rate a tenth past it or under it; lowered or forgotten, it moves', () => {
    const ceiling = probe([20, 0]);
    expect([ceiling.passedBy(22.1), ceiling.passedBy(21.9)]).toEqual([true, false]);
    expect([ceiling.wellUnder(18), ceiling.wellUnder(18.3)]).toEqual([true, false]);
    ceiling.lowerTo(12);
    expect(ceiling.value).toBe(12);
    ceiling.forget();
    expect(ceiling.value).toBe(Number.POSITIVE_INFINITY);
  });

  it('caps what a refusal measures at the ceiling, unless a guessed ceiling was passed by a tenth', () => {
    const measured = new CeilingProbe();
    measured.slowedDown(40, 38, 0);
    expect(measured.capOn(50)).toBe(40);
    const guessed = new CeilingProbe();
    guessed.slowedDown(40, 38, 0, { guessed: true });
    expect(guessed.capOn(43)).toBe(40);
    expect(guessed.capOn(45)).toBe(Number.POSITIVE_INFINITY);
    // Measured again (or lowered to a bound), it is a guess no more.
    guessed.slowedDown(44, 42, 1_000);
    expect(guessed.capOn(60)).toBe(44);
  });
});
