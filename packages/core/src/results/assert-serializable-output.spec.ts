import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidOutputError } from '../errors/invalid-output.error.js';
import { assertSerializableOutput } from './assert-serializable-output.js';

describe('assertSerializableOutput', () => {
  it.each([
    ['an object', { a: 1, b: ['x', null, true], c: { d: 'e' } }],
    ['a string', 'text'],
    ['null', null],
    ['undefined (a void tool)', undefined],
    ['undefined properties', { a: undefined }],
    [
      'dates, URLs and buffers',
      { when: new Date(), where: new URL('https://example.com'), bytes: Buffer.from('hi') },
    ],
    [
      'class instances',
      new (class Point {
        x = 1;
        y = 2;
      })(),
    ],
    [
      'shared, non-circular references',
      (() => {
        const s = { a: 1 };
        return { x: s, y: [s, s] };
      })(),
    ],
  ])('accepts %s', (_label, output) => {
    expect(() => assertSerializableOutput(output)).not.toThrow();
  });

  const circular: Record<string, unknown> = { a: { b: {} } };
  (circular['a'] as { b: Record<string, unknown> }).b['back'] = circular;
  let deep: unknown = 1;
  for (let i = 0; i < 250; i++) deep = [deep];

  it.each([
    ['a BigInt', { total: 10n }, 'a BigInt at output.total'],
    ['a circular structure', circular, 'a circular reference at output.a.b.back'],
    ['a function', { fn: () => 1 }, 'a function at output.fn'],
    ['a symbol', [Symbol('s')], 'a symbol at output.0'],
    ['NaN', { n: Number.NaN }, 'the number NaN at output.n'],
    ['Infinity', Infinity, 'the number Infinity at output'],
    ['undefined in an array', [1, undefined], 'undefined at output.1'],
    ['a Map', { m: new Map() }, 'a Map at output.m'],
    ['a Set', new Set([1]), 'a Set at output'],
    ['a typed array', { t: new Uint8Array(2) }, 'a Uint8Array at output.t'],
    ['a promise', { p: Promise.resolve(1) }, 'a Promise at output.p'],
    ['very deep nesting', deep, 'nesting deeper than 200 levels at output'],
  ])('rejects %s', (_label, output, where) => {
    let thrown: unknown;
    try {
      assertSerializableOutput(output);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidOutputError);
    expect((thrown as Error).message).toContain(`Tool output cannot be sent as JSON: ${where}`);
  });

  it('rejects properties that cannot be read', () => {
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get(): never {
        throw new Error('nope');
      },
    });
    expect(() => assertSerializableOutput(hostile)).toThrow('an unreadable value at output');
  });

  it('accepts every JSON value, however nested', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(() => assertSerializableOutput(value)).not.toThrow();
      }),
    );
  });

  it('gives the same verdict on the quick pass as on the full walk', () => {
    // A class instance at the root skips the quick pass, so the full walk judges everything.
    class Box {
      constructor(readonly inner: unknown) {}
    }
    const accepted = (value: unknown): boolean => {
      try {
        assertSerializableOutput(value);
        return true;
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidOutputError);
        return false;
      }
    };
    const values = fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
      withNullPrototype: true,
      withObjectString: true,
    });
    fc.assert(
      fc.property(values, (value) => {
        expect(accepted(value)).toBe(accepted(new Box(value)));
      }),
      { numRuns: 2000 },
    );
  });
});
