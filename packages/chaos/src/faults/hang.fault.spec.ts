import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { hang } from './hang.fault.js';

describe('hang', () => {
  it('never settles on its own and sets no timer', async () => {
    const clock = new VirtualClock();
    const run = runFault(hang(), { clock });
    let settled = false;
    run.promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await clock.advanceBy(24 * 3_600_000);
    expect(settled).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    expect(run.toolCalls()).toBe(0);
  });

  it('rejects with the signal reason when the call is aborted', async () => {
    const controller = new AbortController();
    const run = runFault(hang(), { context: { signal: controller.signal } });
    const reason = new DOMException('The operation timed out.', 'TimeoutError');
    controller.abort(reason);
    expect(await rejectionOf(run.promise)).toBe(reason);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const run = runFault(hang(), { context: { signal: AbortSignal.abort('gone') } });
    expect(await rejectionOf(run.promise)).toBe('gone');
  });
});
