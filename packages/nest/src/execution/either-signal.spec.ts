import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { eitherSignal } from './either-signal.js';

describe('eitherSignal', () => {
  it('aborts with the reason of whichever source aborts first', () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = eitherSignal(first.signal, second.signal);
    second.abort('shutdown');
    first.abort('caller');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('shutdown');
  });

  it('is an already aborted source itself', () => {
    const aborted = AbortSignal.abort('gone');
    expect(eitherSignal(new AbortController().signal, aborted).signal).toBe(aborted);
  });

  it('leaves no listener on a long-lived source once released', () => {
    const lifetime = new AbortController();
    for (let i = 0; i < 100; i++)
      eitherSignal(new AbortController().signal, lifetime.signal).release();
    expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
  });
});
