import { describe, expect, it, jest } from '@jest/globals';
import { SystemClock } from './system-clock.js';

describe('SystemClock', () => {
  it('reads Date.now()', () => {
    const clock = new SystemClock();
    const before = Date.now();
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('runs a timer once and cancels it', () => {
    jest.useFakeTimers();
    try {
      const clock = new SystemClock();
      const ran = jest.fn();
      const cancelled = jest.fn();
      clock.setTimer(ran, 100);
      const cancel = clock.setTimer(cancelled, 100);
      cancel();
      jest.advanceTimersByTime(100);
      expect(ran).toHaveBeenCalledTimes(1);
      expect(cancelled).not.toHaveBeenCalled();
      cancel();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('chains delays longer than setTimeout accepts instead of firing at once', () => {
    jest.useFakeTimers();
    try {
      const clock = new SystemClock({ unref: true });
      const ran = jest.fn();
      const max = 2 ** 31 - 1;
      const cancel = clock.setTimer(ran, max + 1_000);
      jest.advanceTimersByTime(max);
      expect(ran).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1_000);
      expect(ran).toHaveBeenCalledTimes(1);
      cancel();
    } finally {
      jest.useRealTimers();
    }
  });
});
