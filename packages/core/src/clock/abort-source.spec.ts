import { describe, expect, it, jest } from '@jest/globals';
import { AbortSource } from './abort-source.js';

describe('AbortSource', () => {
  it('makes its AbortSignal only when read, aborted with the same reason before or after', () => {
    const early = new AbortSource();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    early.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');

    const late = new AbortSource();
    late.abort('gone');
    expect([late.aborted, late.reason, late.signal.aborted, late.signal.reason]).toEqual([
      true,
      'gone',
      true,
      'gone',
    ]);
  });

  it('calls each listener still registered once, in order, functions and objects alike', () => {
    const source = new AbortSource();
    const order: string[] = [];
    const removed = jest.fn();
    source.addEventListener('abort', () => order.push('fn'));
    source.addEventListener('abort', removed);
    source.addEventListener('abort', { handleEvent: () => order.push('object') });
    source.removeEventListener('abort', removed);
    source.abort('once');
    source.abort('twice');
    expect(order).toEqual(['fn', 'object']);
    expect(removed).not.toHaveBeenCalled();
    expect(source.reason).toBe('once');
  });

  it('reads as not aborted, with no reason, until it is', () => {
    const source = new AbortSource();
    expect([source.aborted, source.reason]).toEqual([false, undefined]);
    source.abort(undefined);
    expect(source.aborted).toBe(true);
  });
});
