import { describe, expect, it } from '@jest/globals';
import type { Clock } from './clock.js';
import { joinDeadlineList, type DeadlineEntry } from './deadline-list.js';
import { VirtualClock } from './virtual-clock.js';

function entry(deadline: number, expired: string[], name = String(deadline)): DeadlineEntry {
  return {
    deadline,
    previousEntry: undefined,
    nextEntry: undefined,
    expire: () => expired.push(name),
  };
}

describe('DeadlineList', () => {
  it('expires entries in deadline order behind a single timer', async () => {
    const clock = new VirtualClock();
    const expired: string[] = [];
    for (let at = 0; at < 5; at++) {
      joinDeadlineList(clock, 100, entry(clock.now() + 100, expired, `e${at}`));
      await clock.advanceBy(10);
    }
    expect(clock.pendingTimers).toBe(1);
    await clock.advanceBy(55); // t = 105: e0 due at 100
    expect(expired).toEqual(['e0']);
    await clock.advanceBy(100);
    expect(expired).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('lets entries leave early, and cancels its timer once empty', async () => {
    const clock = new VirtualClock();
    const expired: string[] = [];
    const first = entry(100, expired, 'first');
    const second = entry(150, expired, 'second');
    const list = joinDeadlineList(clock, 100, first);
    joinDeadlineList(clock, 100, second);
    list?.remove(first);
    list?.remove(first); // twice does nothing
    await clock.advanceTo(120);
    expect(expired).toEqual([]);
    await clock.advanceTo(150);
    expect(expired).toEqual(['second']);

    const alone = entry(300, expired, 'alone');
    joinDeadlineList(clock, 150, alone)?.remove(alone);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses an entry due before the last one (a clock set back)', () => {
    const clock = new VirtualClock({ startMs: 1_000 });
    const expired: string[] = [];
    expect(joinDeadlineList(clock, 100, entry(1_100, expired))).toBeDefined();
    expect(joinDeadlineList(clock, 100, entry(1_050, expired))).toBeUndefined();
  });

  it('expires the entry its timer was set for even when the clock reads a little early', () => {
    let now = 0;
    let fire: (() => void) | undefined;
    const clock: Clock = {
      now: () => now,
      setTimer: (callback) => {
        fire = callback;
        return () => (fire = undefined);
      },
    };
    const expired: string[] = [];
    joinDeadlineList(clock, 10, entry(10, expired, 'armed'));
    joinDeadlineList(clock, 10, entry(12, expired, 'later'));
    now = 9; // the timer fires a millisecond before the clock says the deadline has come
    fire?.();
    expect(expired).toEqual(['armed']);
    expect(fire).toBeDefined(); // armed again for the later entry
  });
});
