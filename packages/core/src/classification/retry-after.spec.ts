import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter } from './retry-after.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['2', 2000],
    [' 120 ', 120_000],
    ['0', 0],
    ['1.5', 1500],
    [3, 3000],
  ])('reads delta-seconds %j', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('reads HTTP dates relative to now, a past date meaning now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sunday, 22-Nov-26 10:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:00 GMT', NOW)).toBe(0);
  });

  it.each([
    '-1',
    '',
    'soon',
    '1e3',
    'NaN',
    'Mon, 99 Foo 2026',
    '2026-11-22T10:00:30Z',
    -5,
    Number.NaN,
    Infinity,
  ])('rejects %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('reads headers of every shape and casing', () => {
    expect(parseRetryAfter({ 'Retry-After': '7' }, NOW)).toBe(7000);
    expect(parseRetryAfter({ 'RETRY-AFTER': ['4', '9'] }, NOW)).toBe(4000);
    expect(parseRetryAfter(new Headers({ 'Retry-After': '5' }), NOW)).toBe(5000);
    expect(parseRetryAfter(new Map([['Retry-After', '6']]), NOW)).toBe(6000);
    expect(parseRetryAfter({ 'content-type': 'text/plain' }, NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });

  it('prefers retry-after-ms, and falls back when it is garbage', () => {
    expect(parseRetryAfter({ 'retry-after': '2', 'Retry-After-Ms': '150.2' }, NOW)).toBe(151);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '80' }), NOW)).toBe(80);
    expect(parseRetryAfter({ 'retry-after-ms': '-3', 'retry-after': '1' }, NOW)).toBe(1000);
  });

  it('survives headers that throw', () => {
    const hostile = {
      get(): never {
        throw new Error('no');
      },
    };
    expect(parseRetryAfter(hostile, NOW)).toBeUndefined();
  });
});
