import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { thrownBy } from '../testing/thrown-by.test.js';
import { parseToolArguments } from './parse-tool-arguments.js';

class Point {
  x = 1;
}
class Items extends Array<number> {}

function withOwn(key: string, descriptor: PropertyDescriptor, target: object = {}): object {
  return Object.defineProperty(target, key, descriptor);
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = { back: cyclic };
const holey = [1, 2, 3];
delete holey[1];
const padded = Object.assign([1, 2], { extra: true });

describe('parseToolArguments with arguments built in code', () => {
  it.each<[string, () => unknown, string, string]>([
    [
      'a non-enumerable own __proto__',
      () => withOwn('__proto__', { value: { polluted: true } }),
      '__proto__',
      "the key '__proto__' is not allowed",
    ],
    [
      'an enumerable own __proto__',
      () => withOwn('__proto__', { value: {}, enumerable: true }),
      '__proto__',
      "the key '__proto__' is not allowed",
    ],
    [
      'a hidden constructor key',
      () => withOwn('constructor', { value: 1 }),
      'constructor',
      "the key 'constructor' is not allowed",
    ],
    [
      'a nested prototype key',
      () => ({ a: [{ prototype: {} }] }),
      'a.0.prototype',
      "the key 'prototype' is not allowed",
    ],
    [
      'an inherited prototype',
      () => Object.create({ isAdmin: true }),
      '',
      'an object with an inherited prototype is not plain data',
    ],
    [
      'an inherited prototype below',
      () => ({ a: Object.create(Object.create(null)) }),
      'a',
      'an object with an inherited prototype is not plain data',
    ],
    ['a class instance', () => new Point(), '', 'an instance of Point is not plain data'],
    ['a Date', () => ({ when: new Date(0) }), 'when', 'an instance of Date is not plain data'],
    ['a Map', () => ({ m: new Map([['a', 1]]) }), 'm', 'an instance of Map is not plain data'],
    [
      'an Array subclass',
      () => ({ list: Items.from([1]) }),
      'list',
      'an instance of Items is not plain data',
    ],
    ['a function', () => ({ f: () => 1 }), 'f', 'a function is not plain data'],
    ['a symbol value', () => ({ s: Symbol('s') }), 's', 'a symbol is not plain data'],
    ['a symbol key', () => ({ [Symbol('k')]: 1 }), '', 'the symbol key Symbol(k) is not allowed'],
    ['a BigInt', () => ({ n: 10n }), 'n', 'a bigint is not plain data'],
    ['NaN', () => ({ n: NaN }), 'n', 'NaN is not a finite number'],
    [
      'Infinity',
      () => ({ n: [Number.NEGATIVE_INFINITY] }),
      'n.0',
      '-Infinity is not a finite number',
    ],
    ['undefined', () => ({ u: undefined }), 'u', 'undefined is not plain data (leave the key out)'],
    ['a cycle', () => cyclic, 'self.back', 'refers back to an object that contains it (a cycle)'],
    [
      'a getter',
      () => ({
        get secret() {
          return 'x';
        },
      }),
      'secret',
      'a getter or setter is not plain data',
    ],
    [
      'a hidden property',
      () => withOwn('x', { value: 1 }),
      'x',
      'a hidden (non-enumerable) property is not plain data',
    ],
    ['an array with holes', () => ({ a: holey }), 'a', 'an array with holes is not plain data'],
    [
      'an array with a named property',
      () => ({ a: padded }),
      'a.extra',
      'an array may hold only its items',
    ],
  ])('refuses %s, naming its path', (_, build, path, message) => {
    const error = thrownBy(() => parseToolArguments(build())) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toBe(`Arguments rejected: ${message} at '${path}'.`);
    expect(error.issues).toEqual([expect.objectContaining({ path, message })]);
  });

  it('never runs a getter', () => {
    let ran = false;
    const args = {
      get city() {
        ran = true;
        return 'Paris';
      },
    };
    expect(() => parseToolArguments(args)).toThrow(InvalidInputError);
    expect(ran).toBe(false);
  });

  it('accepts plain data, null prototypes and shared (not cyclic) parts, and copies it', () => {
    const shared = { id: 1 };
    const bare = Object.assign(Object.create(null) as object, { city: 'Paris' });
    const args = { bare, a: shared, b: [shared, null, true, -0, 'x'] };
    const copy = parseToolArguments(args);
    expect(copy).toEqual({
      bare: { city: 'Paris' },
      a: { id: 1 },
      b: [{ id: 1 }, null, true, -0, 'x'],
    });
    expect(copy).not.toBe(args);
    expect(copy.a).not.toBe(shared);
  });

  it('holds objects to the same depth limit as text', () => {
    expect(() => parseToolArguments({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toThrow(
      "Arguments rejected: nested deeper than 2 levels at 'a.b'.",
    );
  });
});
