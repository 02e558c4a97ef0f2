import { describe, expect, it } from '@jest/globals';
import { assertOptions } from './assert-options.js';
import { describeOptionValue } from './option-rule.js';
import { bool, either, integer, listOf, objectOf, oneOf, withConditions } from './option-rules.js';

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

describe('withConditions', () => {
  interface Probe {
    readonly idempotent?: boolean;
    readonly hedging?: { readonly share?: number } | false;
  }
  const rule = withConditions(
    objectOf<Probe>({
      idempotent: bool(),
      hedging: either(oneOf([false]), objectOf({ share: integer(0, 1) })),
    }),
    [
      {
        option: 'hedging',
        holds: (probe) => probe.hedging === false || probe.idempotent === true,
        condition: 'the tool is idempotent',
      },
    ],
  );

  it('allows the option when its condition holds, or when it is absent', () => {
    expect(() => assertOptions(rule, { idempotent: true, hedging: {} }, 't')).not.toThrow();
    expect(() => assertOptions(rule, { hedging: false }, 't')).not.toThrow();
    expect(() => assertOptions(rule, {}, 't')).not.toThrow();
  });

  it('refuses it at its own path when the condition fails, and reports only its own problem when it is invalid', () => {
    expect(() => assertOptions(rule, { hedging: {} }, 't', '@Tool(x)')).toThrow(
      'Invalid t: @Tool(x).hedging must be absent unless the tool is idempotent, got an object.',
    );
    expect(() => assertOptions(rule, { hedging: { share: 2 } }, 't')).toThrow(
      'Invalid t: hedging.share must be an integer from 0 to 1, got 2.',
    );
  });
});
