import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from './virtual-clock.js';
import { sleep } from './sleep.js';

describe('VirtualClock', () => {
  it('starts at the given time and moves only when advanced', async () => {
    const clock = new VirtualClock({ startMs: 1_000 });
    expect(clock.now()).toBe(1_000);
    await clock.advanceBy(250);
    expect(clock.now()).toBe(1_250);
    await clock.advanceTo(2_000);
    expect(clock.now()).toBe(2_000);
  });

  it('runs due timers in time order, ties in insertion order, with now() at each due time', async () => {
    const clock = new VirtualClock();
    const log: string[] = [];
    clock.setTimer(() => log.push(`c@${clock.now()}`), 30);
    clock.setTimer(() => log.push(`a@${clock.now()}`), 10);
    clock.setTimer(() => log.push(`b1@${clock.now()}`), 20);
    clock.setTimer(() => log.push(`b2@${clock.now()}`), 20);
    await clock.advanceBy(25);
    expect(log).toEqual(['a@10', 'b1@20', 'b2@20']);
    expect(clock.pendingTimers).toBe(1);
    await clock.advanceBy(5);
    expect(log).toEqual(['a@10', 'b1@20', 'b2@20', 'c@30']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('lets await chains resumed by a timer progress and schedule timers within the same advance', async () => {
    const clock = new VirtualClock();
    const wait = (ms: number) => new Promise<void>((resolve) => clock.setTimer(resolve, ms));
    const seen: number[] = [];
    const chain = (async () => {
      await wait(100);
      seen.push(clock.now());
      await Promise.resolve();
      await wait(100);
      seen.push(clock.now());
    })();
    await clock.advanceBy(200);
    await chain;
    expect(seen).toEqual([100, 200]);
  });

  it('does not run cancelled timers, and cancelling twice or after running does nothing', async () => {
    const clock = new VirtualClock();
    let runs = 0;
    const cancel = clock.setTimer(() => runs++, 10);
    const ranCancel = clock.setTimer(() => runs++, 5);
    expect(clock.pendingTimers).toBe(2);
    cancel();
    cancel();
    expect(clock.pendingTimers).toBe(1);
    await clock.advanceBy(20);
    ranCancel();
    expect(runs).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('clamps negative and NaN delays to zero', async () => {
    const clock = new VirtualClock();
    let runs = 0;
    clock.setTimer(() => runs++, -5);
    clock.setTimer(() => runs++, Number.NaN);
    await clock.advanceBy(0);
    expect(runs).toBe(2);
  });

  it('runAll runs timers set by timers and moves time to the last one', async () => {
    const clock = new VirtualClock();
    const log: number[] = [];
    clock.setTimer(() => {
      log.push(clock.now());
      clock.setTimer(() => log.push(clock.now()), 500);
    }, 100);
    await clock.runAll();
    expect(log).toEqual([100, 600]);
    expect(clock.now()).toBe(600);
    expect(clock.pendingTimers).toBe(0);
  });

  it('runAll stops an endless timer loop', async () => {
    const clock = new VirtualClock({ maxTimersPerRun: 50 });
    const again = (): void => void clock.setTimer(again, 1);
    again();
    await expect(clock.runAll()).rejects.toThrow(/50 timers/);
  });

  it('refuses to go back in time or to overlap advances', async () => {
    const clock = new VirtualClock({ startMs: 100 });
    expect(() => clock.advanceBy(-1)).toThrow(RangeError);
    await expect(clock.advanceTo(50)).rejects.toThrow(RangeError);
    const first = clock.advanceBy(10);
    await expect(clock.advanceBy(10)).rejects.toThrow(/already advancing/);
    await first;
    expect(clock.now()).toBe(110);
  });

  it('runUntilSettled runs timers set after some turns of the event loop until the promise settles', async () => {
    const clock = new VirtualClock();
    const work = (async () => {
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      await sleep(clock, 1_000);
      await sleep(clock, 500);
      return clock.now();
    })();
    await expect(clock.runUntilSettled(work)).resolves.toBe(1_500);
    expect(clock.pendingTimers).toBe(0);
  });

  it('runUntilSettled passes a rejection on, and gives up on a promise that never settles', async () => {
    const clock = new VirtualClock({ maxTimersPerRun: 5 });
    await expect(clock.runUntilSettled(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(clock.runUntilSettled(new Promise(() => undefined))).rejects.toThrow(
      /still pending/,
    );
  });
});
