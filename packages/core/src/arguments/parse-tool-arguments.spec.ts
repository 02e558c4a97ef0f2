import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { LimitExceededError } from '../errors/limit-exceeded.error.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { thrownBy } from '../testing/thrown-by.test.js';

describe('parseToolArguments', () => {
  it.each([null, undefined, '', '   ', 'null'])('reads %j as no arguments', (raw) => {
    expect(parseToolArguments(raw)).toEqual({});
  });

  it('parses a JSON object string and copies an object built in code', () => {
    expect(parseToolArguments('{"city":"Paris","days":[1,2]}')).toEqual({
      city: 'Paris',
      days: [1, 2],
    });
    const built = { city: 'Paris', days: [1, 2] };
    const copy = parseToolArguments(built);
    built.days.push(3);
    expect(copy).toEqual({ city: 'Paris', days: [1, 2] });
  });

  it('says where half-formed JSON broke', () => {
    const error = thrownBy(() => parseToolArguments('{"city": "Par'));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).message).toBe(
      `Arguments are not valid JSON: unterminated string at line 1, column 14, near '{"city": "Par'.`,
    );
    expect((error as InvalidInputError).metadata).toEqual({ line: 1, column: 14 });
  });

  it('shortens the snippet of a long payload around the break', () => {
    const raw = `{"text": "${'a'.repeat(100)}", "n": 1,, "rest": "${'b'.repeat(100)}"}`;
    const { message } = thrownBy(() => parseToolArguments(raw)) as InvalidInputError;
    expect(message).toContain(
      `at line 1, column 121, near '…${'a'.repeat(14)}", "n": 1,, "rest"…'.`,
    );
  });

  it.each([
    ['[1,2]', 'an array'],
    ['42', 'a number'],
    ['"text"', 'a string'],
    ['true', 'a boolean'],
  ])('rejects the non-object JSON %s', (raw, kind) => {
    const error = thrownBy(() => parseToolArguments(raw)) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toBe(`Arguments must be a JSON object, not ${kind}.`);
    expect(error.issues).toEqual([
      { path: '', message: 'must be an object', constraint: 'isObject' },
    ]);
  });

  it('rejects an array passed as an object', () => {
    expect(() => parseToolArguments([1])).toThrow(InvalidInputError);
  });

  it('counts UTF-8 bytes against the limit before parsing', () => {
    const error = thrownBy(() => parseToolArguments('{"a":"éé"}', { maxBytes: 11 }));
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).message).toBe(
      'Arguments are 12 bytes, over the 11-byte limit.',
    );
    expect(parseToolArguments('{"a":"éé"}', { maxBytes: 12 })).toEqual({ a: 'éé' });
  });

  it('applies a 1 MiB limit by default, even to malformed text', () => {
    expect(() => parseToolArguments(`{"a":"${'x'.repeat(1024 * 1024)}`)).toThrow(
      LimitExceededError,
    );
  });

  it.each([
    ['{"__proto__": {"polluted": true}}', '__proto__'],
    ['{"a": {"b": [{"constructor": {"prototype": {}}}]}}', 'a.b.0.constructor'],
    ['{"prototype": 1}', 'prototype'],
  ])('rejects prototype-reaching keys in %s', (raw, path) => {
    const error = thrownBy(() => parseToolArguments(raw)) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.issues).toEqual([
      {
        path,
        message: `the key '${path.split('.').at(-1)}' is not allowed`,
        constraint: 'forbiddenKey',
      },
    ]);
  });

  it('never pollutes a prototype', () => {
    for (const raw of [
      '{"__proto__": {"polluted": "yes"}}',
      '{"constructor": {"prototype": {"polluted": "yes"}}}',
    ]) {
      expect(() => parseToolArguments(raw)).toThrow(InvalidInputError);
    }
    const polluted = JSON.parse('{"__proto__": {"polluted": "yes"}}') as object;
    expect(() => parseToolArguments(polluted)).toThrow(InvalidInputError);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('limits nesting depth, and treats cycles as too deep', () => {
    expect(parseToolArguments('{"a":{"b":1}}', { maxDepth: 2 })).toEqual({ a: { b: 1 } });
    const error = thrownBy(() =>
      parseToolArguments('{"a":{"b":{"c":1}}}', { maxDepth: 2 }),
    ) as InvalidInputError;
    expect(error.message).toBe(`Arguments rejected: nested deeper than 2 levels at 'a.b'.`);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => parseToolArguments(cyclic)).toThrow(InvalidInputError);
    expect(() => parseToolArguments(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(
      InvalidInputError,
    );
  });

  it('turns an unreadable object into invalid input', () => {
    const { proxy: hostile, revoke } = Proxy.revocable({}, {});
    revoke();
    const error = thrownBy(() => parseToolArguments(hostile)) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toBe('Arguments could not be read.');
  });
});
