import { describe, expect, it } from '@jest/globals';
import { formatDelay } from './format-delay.js';

describe('formatDelay', () => {
  it.each([
    [0, '0ms'],
    [250.2, '251ms'],
    [1500, '1.5s'],
    [45_000, '45s'],
    [150_000, '3 min'],
    [10_800_000, '3 h'],
  ])('formats %d ms as %s', (ms, text) => {
    expect(formatDelay(ms)).toBe(text);
  });
});
