import { describe, expect, it } from '@jest/globals';
import { assertOptions } from './assert-options.js';
import { describeOptionValue } from './option-rule.js';
import { integer, listOf, objectOf, oneOf } from './option-rules.js';

describe('describeOptionValue', () => {
  it.each([
    [NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [-0, '-0'],
    ['100', "'100'"],
    ['x'.repeat(50), `'${'x'.repeat(40)}…' (50 characters)`],
    [10n, '10n'],
    [Symbol('s'), 'Symbol(s)'],
    [() => 1, 'a function'],
    [undefined, 'undefined'],
    [null, 'null'],
    [[1, 2], 'an array of 2'],
    [{}, 'an object'],
    [Object.create(null), 'an object'],
    [new Date(0), 'a Date'],
    [new Date(NaN), 'an invalid Date'],
    [new Map(), 'a Map'],
  ])('describes %p as %s', (value, shown) => {
    expect(describeOptionValue(value)).toBe(shown);
  });
});

describe('assertOptions', () => {
  const rule = objectOf<{ count?: number; order?: readonly string[] }>({
    count: integer(0),
    order: listOf(oneOf(['a', 'b']), { unique: true, complete: ['a', 'b'] }),
  });

  it('returns allowed options unchanged', () => {
    const options = { count: 1, order: ['b', 'a'] };
    expect(assertOptions(rule, options, 'test options')).toBe(options);
  });

  it('lists every problem in one message, under the path it is given', () => {
    expect(() =>
      assertOptions(rule, { count: -1, order: ['a', 'c'] }, 'test options', '@Test(x)'),
    ).toThrow(
      "Invalid test options: @Test(x).count must be an integer from 0 up, got -1; @Test(x).order[1] must be one of 'a', 'b', got 'c'.",
    );
  });

  it('refuses an ordering that repeats or leaves out an item', () => {
    expect(() => assertOptions(rule, { order: ['a', 'a'] }, 't')).toThrow(
      "Invalid t: order[1] must be an item not already in the list, got 'a'.",
    );
    expect(() => assertOptions(rule, { order: ['a'] }, 't')).toThrow(
      "Invalid t: order must be a list of 'a', 'b', each exactly once, got a list without 'b'.",
    );
  });
});
