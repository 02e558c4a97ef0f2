import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { ObjectMemo } from '../src/execution/object-memo.js';

describe('ObjectMemo', () => {
  it('remembers a value about an object without anything else seeing it', () => {
    const memo = new ObjectMemo<string>('test.note');
    const error = new Error('boom');
    memo.set(error, 'internal');
    expect(memo.get(error)).toBe('internal');
    expect(Object.keys(error)).toEqual([]);
    expect({ ...error }).toEqual({});
    expect(JSON.stringify({ error: { ...error, message: error.message } })).toBe(
      '{"error":{"message":"boom"}}',
    );
    expect(inspect(error)).not.toContain('internal');
    expect(error).toEqual(new Error('boom'));
  });

  it('keeps each memo to itself, and a new value replaces the old', () => {
    const first = new ObjectMemo<number>('test.first');
    const second = new ObjectMemo<number>('test.second');
    const object = {};
    first.set(object, 1);
    second.set(object, 2);
    first.set(object, 3);
    expect([first.get(object), second.get(object)]).toEqual([3, 2]);
  });

  it('does not answer for an object that only inherits from a remembered one', () => {
    const memo = new ObjectMemo<string>('test.inherited');
    const parent = new Error('parent');
    memo.set(parent, 'noted');
    expect(memo.get(Object.create(parent) as object)).toBeUndefined();
  });

  it('falls back to a WeakMap for objects that take no property', () => {
    const memo = new ObjectMemo<string>('test.frozen');
    const frozen = Object.freeze(new Error('frozen'));
    const refusing = new Proxy(
      {},
      {
        defineProperty: () => {
          throw new Error('no');
        },
        get: () => {
          throw new Error('no');
        },
      },
    );
    memo.set(frozen, 'a');
    memo.set(refusing, 'b');
    expect([memo.get(frozen), memo.get(refusing)]).toEqual(['a', 'b']);
    expect(memo.get({})).toBeUndefined();
  });
});
