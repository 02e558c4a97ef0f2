import { describe, expect, it } from '@jest/globals';
import { CancelledError } from '@toolshield/core';
import { getEventListeners } from 'node:events';
import { LiveCalls } from '../src/execution/live-calls.js';

describe('LiveCalls', () => {
  it('tracks calls without listening on any shared signal, and forgets ended ones', () => {
    const live = new LiveCalls();
    const caller = new AbortController();
    const calls = Array.from({ length: 100 }, () => live.open(caller.signal));
    expect(live.size).toBe(100);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    for (const call of calls) live.end(call);
    expect(live.size).toBe(0);
  });

  it('aborts every call in flight on close, and refuses calls after it', () => {
    const live = new LiveCalls();
    const calls = [live.open(undefined), live.open(undefined)];
    const reason = new CancelledError('shutting down');
    live.close(reason);
    expect(calls.map((call) => call.signal.reason)).toEqual([reason, reason]);
    expect(live.size).toBe(0);
    expect(() => live.open(undefined)).toThrow(reason);
  });

  it('refuses a call whose caller already aborted', () => {
    expect(() => new LiveCalls().open(AbortSignal.abort())).toThrow(CancelledError);
  });
});
