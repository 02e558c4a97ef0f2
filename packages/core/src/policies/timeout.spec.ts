import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { VirtualClock } from '../clock/virtual-clock.js';
import { CancelledError } from '../errors/cancelled.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import { callBudget } from './call-budget.js';
import { withTimeout, type AbandonedAttempt } from './timeout.js';

describe('withTimeout', () => {
  it('a never-settling fn with a 50 ms timeout ends in ToolTimeoutError and its signal is aborted', async () => {
    const clock = new VirtualClock();
    let seen: AbortSignal | undefined;
    const result = withTimeout(
      (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      },
      { timeoutMs: 50, clock, toolName: 'hang' },
    );
    const failed = expect(result).rejects.toMatchObject({
      toolName: 'hang',
      metadata: { timeoutMs: 50 },
    });
    await clock.advanceBy(49);
    expect(seen?.aborted).toBe(false);
    await clock.advanceBy(1);
    await failed;
    await expect(result).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(ToolTimeoutError);
    expect(clock.pendingTimers).toBe(0);
  });

  it('aborts with a CancelledError when the caller aborts, and removes its listener', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    let seen: AbortSignal | undefined;
    const result = withTimeout(
      (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      },
      { timeoutMs: 1_000, signal: caller.signal, clock },
    );
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('user pressed stop');
    caller.abort(reason);
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    await expect(result).rejects.toMatchObject({ cause: reason });
    expect(seen?.reason).toBeInstanceOf(CancelledError);
    expect(clock.pendingTimers).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('clears the timer and the listener when the attempt settles in time', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    await expect(
      withTimeout(async () => 'fast', { timeoutMs: 50, signal: caller.signal, clock }),
    ).resolves.toBe('fast');
    expect(clock.pendingTimers).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await expect(
      withTimeout(
        async () => {
          throw new Error('boom');
        },
        { timeoutMs: 50, clock },
      ),
    ).rejects.toThrow('boom');
    expect(clock.pendingTimers).toBe(0);
  });

  it('discards a result that arrives after the timeout', async () => {
    const clock = new VirtualClock();
    let deliver: (value: string) => void = () => undefined;
    const settled: unknown[] = [];
    const result = withTimeout(() => new Promise<string>((resolve) => (deliver = resolve)), {
      timeoutMs: 10,
      clock,
    }).then(
      (value) => settled.push(value),
      (error: unknown) => settled.push(error),
    );
    await clock.advanceBy(10);
    deliver('late');
    await result;
    await clock.advanceBy(0);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toBeInstanceOf(ToolTimeoutError);
  });

  it('turns a synchronous throw into a rejection and rejects at once for an aborted caller', async () => {
    const clock = new VirtualClock();
    await expect(
      withTimeout(
        () => {
          throw new Error('sync');
        },
        { timeoutMs: 10, clock },
      ),
    ).rejects.toThrow('sync');
    let called = false;
    await expect(
      withTimeout(
        async () => {
          called = true;
        },
        { timeoutMs: 10, signal: AbortSignal.abort(), clock },
      ),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(called).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('sets no timer without a time limit', async () => {
    const clock = new VirtualClock();
    const result = withTimeout(async () => 1, { clock });
    expect(clock.pendingTimers).toBe(0);
    await expect(result).resolves.toBe(1);
  });

  it('discards a result arriving after the deadline by the clock, before any timer ran', async () => {
    const clock = new VirtualClock();
    let now = 0;
    const busy = { now: () => now, setTimer: clock.setTimer.bind(clock) };
    let seen: AbortSignal | undefined;
    const result = withTimeout(
      (signal) => {
        seen = signal;
        now = 10; // 10 ms of synchronous work: the 2 ms timer could not run
        return Promise.resolve('late');
      },
      { timeoutMs: 2, clock: busy },
    );
    await expect(result).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(seen?.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('ends the attempt when the call budget runs out first, saying so, also without a time limit', async () => {
    const clock = new VirtualClock();
    for (const timeoutMs of [1_000, undefined]) {
      const budget = callBudget(1_500, clock.now() - 1_200);
      const result = withTimeout(() => new Promise<never>(() => undefined), {
        timeoutMs,
        budget,
        clock,
      });
      const failed = expect(result).rejects.toMatchObject({
        type: 'timeout',
        metadata: { budgetMs: 1_500 },
        message: expect.stringMatching(/budget of 1500 ms ran out/),
      });
      await clock.advanceBy(300);
      await failed;
    }
    await expect(
      withTimeout(async () => 'never runs', { budget: callBudget(100, clock.now() - 100), clock }),
    ).rejects.toMatchObject({ metadata: { budgetMs: 100 } });
  });

  it('tells onAbandoned about a body its caller left running, with its deadline', async () => {
    const clock = new VirtualClock();
    const caller = new AbortController();
    let finish: (value: string) => void = () => undefined;
    const abandoned: AbandonedAttempt[] = [];
    const result = withTimeout(() => new Promise<string>((resolve) => (finish = resolve)), {
      timeoutMs: 50,
      signal: caller.signal,
      clock,
      onAbandoned: (attempt) => abandoned.push(attempt),
    });
    caller.abort();
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    expect(abandoned).toEqual([{ settled: expect.any(Promise), deadline: 50 }]);
    let settled = false;
    void abandoned[0]?.settled.then(() => (settled = true));
    await clock.advanceBy(0);
    expect(settled).toBe(false);
    finish('done');
    await clock.advanceBy(0);
    expect(settled).toBe(true);
  });
});
