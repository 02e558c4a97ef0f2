import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { LimitExceededError } from '../errors/limit-exceeded.error.js';
import { parseToolArguments } from './parse-tool-arguments.js';

const hostileKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'a');

/** JSON texts built to reach prototypes: hostile keys at any depth, then possibly cut short. */
const hostileJson = fc
  .letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue(),
      fc.dictionary(hostileKeys, tie('node'), { maxKeys: 3 }),
      fc.array(tie('node'), { maxLength: 3 }),
    ),
  }))
  .node.chain((node) => {
    const text = JSON.stringify(node).replaceAll('"a"', '"__proto__"');
    return fc.nat({ max: text.length }).map((cut) => (cut % 3 === 0 ? text.slice(0, cut) : text));
  });

function expectSafeOutcome(raw: unknown): void {
  let parsed: unknown;
  try {
    parsed = parseToolArguments(raw, { maxBytes: 4096, maxDepth: 8 });
  } catch (error) {
    expect(error instanceof InvalidInputError || error instanceof LimitExceededError).toBe(true);
    return;
  }
  expect(typeof parsed).toBe('object');
  expect(Array.isArray(parsed)).toBe(false);
  expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  expect(Object.hasOwn(parsed as object, '__proto__')).toBe(false);
}

describe('parseToolArguments (properties)', () => {
  it('only ever throws InvalidInputError or LimitExceededError for arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 5000 }),
          fc.string({ unit: 'binary' }),
          fc.json(),
          hostileJson,
        ),
        (raw) => {
          expectSafeOutcome(raw);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never pollutes Object.prototype', () => {
    fc.assert(
      fc.property(hostileJson, (raw) => {
        expectSafeOutcome(raw);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        expect(Object.keys(Object.prototype)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
