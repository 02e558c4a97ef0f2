import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { sleep } from './sleep.js';
import { VirtualClock } from './virtual-clock.js';

describe('sleep', () => {
  it('resolves after the given clock time and removes its abort listener', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    let done = false;
    const slept = sleep(clock, 1_000, controller.signal).then(() => (done = true));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await clock.advanceBy(999);
    expect(done).toBe(false);
    await clock.advanceBy(1);
    await slept;
    expect(done).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason when aborted, cancels its timer and leaves no listener', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const slept = sleep(clock, 1_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(clock.pendingTimers).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once without a timer when the signal is already aborted', async () => {
    const clock = new VirtualClock();
    const reason = new Error('already');
    await expect(sleep(clock, 10, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(clock.pendingTimers).toBe(0);
  });
});
