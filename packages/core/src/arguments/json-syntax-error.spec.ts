import { describe, expect, it } from '@jest/globals';
import { locateJsonSyntaxError } from './json-syntax-error.js';

describe('locateJsonSyntaxError', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {}} ',
    '"text"',
    '0',
  ])('accepts valid JSON %s', (text) => {
    expect(locateJsonSyntaxError(text)).toBeUndefined();
  });

  it.each([
    ['{"city": "Par', 13, 'unterminated string'],
    ['{"a":1,}', 7, 'expected a double-quoted property name'],
    ['{"a" 1}', 5, "expected ':' after a property name"],
    ['[1,2', 4, 'unexpected end of input'],
    ['[1 2]', 3, "expected ',' or ']'"],
    ['nul', 3, 'unexpected end of input'],
    ['{"a": tru }', 6, 'unexpected character "t"'],
    ['{"a":1} x', 8, 'unexpected text after the JSON value'],
    ['{"a":"\\q"}', 6, 'invalid escape in string'],
    ['{"a":"\\u12"}', 6, 'invalid unicode escape in string'],
    ['{"a":"\u0001"}', 6, 'control character in string'],
    ['{"a": -}', 6, 'invalid number'],
    ['', 0, 'unexpected end of input'],
  ])('finds where %j breaks', (text, offset, reason) => {
    expect(locateJsonSyntaxError(text)).toMatchObject({ offset, reason });
  });

  it('reports 1-based line and column', () => {
    expect(locateJsonSyntaxError('{\n  "a": 1,\n  "b": ?\n}')).toEqual({
      offset: 19,
      line: 3,
      column: 8,
      reason: 'unexpected character "?"',
    });
  });

  it('handles very deep nesting without recursion', () => {
    expect(locateJsonSyntaxError('['.repeat(200_000))).toMatchObject({
      reason: 'unexpected end of input',
    });
  });
});
