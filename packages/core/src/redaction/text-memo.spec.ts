import { describe, expect, it, jest } from '@jest/globals';
import { memoizeText } from './text-memo.js';

describe('memoizeText', () => {
  it('runs the function once per text it still remembers', () => {
    const fn = jest.fn((text: string) => text.toUpperCase());
    const memo = memoizeText(fn);
    expect(memo('open')).toBe('OPEN');
    expect(memo('open')).toBe('OPEN');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('forgets the oldest text first once it holds 512, and never keeps long texts', () => {
    const fn = jest.fn((text: string) => `<${text}>`);
    const memo = memoizeText(fn);
    for (let i = 0; i <= 512; i++) memo(`t${i}`);
    fn.mockClear();
    memo('t512');
    expect(fn).not.toHaveBeenCalled();
    memo('t0');
    expect(fn).toHaveBeenCalledTimes(1);

    const long = 'x'.repeat(4096);
    memo(long);
    memo(long);
    expect(fn).toHaveBeenCalledTimes(3);
  });
});
