import { describe, expect, it } from '@jest/globals';
import { CancelledError } from '@toolshield/core';
import { getEventListeners } from 'node:events';
import { LiveCalls } from '../src/execution/live-calls.js';

describe('LiveCalls', () => {
  it('tracks calls, and forgets ended ones without leaving a listener on their callers', () => {
    const live = new LiveCalls();
    const caller = new AbortController();
    const calls = Array.from({ length: 100 }, () => live.open(caller.signal));
    expect(live.size).toBe(100);
    for (const call of calls) live.end(call);
    expect(live.size).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('aborts every call in flight on close, and refuses calls after it', () => {
    const live = new LiveCalls();
    const calls = [live.open(undefined), live.open(undefined)];
    const early = calls[0]?.signal;
    const reason = new CancelledError('shutting down');
    live.close(reason);
    expect(early?.reason).toBe(reason);
    expect(calls.map((call) => [call.aborted, call.reason, call.signal.reason])).toEqual([
      [true, reason, reason],
      [true, reason, reason],
    ]);
    expect(live.size).toBe(0);
    expect(() => live.open(undefined)).toThrow(reason);
  });

  it("is cancelled by its caller's signal, with the reason of whichever comes first", () => {
    const live = new LiveCalls();
    const caller = new AbortController();
    const call = live.open(caller.signal);
    caller.abort('caller');
    live.close('shutdown');
    expect(call.reason).toBe('caller');
  });

  it('refuses a call whose caller already aborted', () => {
    expect(() => new LiveCalls().open(AbortSignal.abort())).toThrow(CancelledError);
  });
});
