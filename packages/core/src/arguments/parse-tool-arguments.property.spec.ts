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

  it('lets only plain data through from arguments built in code, and never pollutes', () => {
    fc.assert(
      fc.property(codeArguments, (args) => {
        let parsed: unknown;
        try {
          parsed = parseToolArguments(args, { maxDepth: 8 });
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidInputError);
          return;
        }
        expectPlainData(parsed, '');
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });
});

/** Values as code builds them: class instances, Maps, BigInts, holes, hostile keys, ... */
const codeValue = fc.anything({
  key: hostileKeys,
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** Ways code can hide a hazard from `Object.keys` and `JSON.stringify`. */
const tamperings: readonly ((target: Record<string, unknown>, key: string) => void)[] = [
  (target, key) => Object.defineProperty(target, key, { value: { polluted: true } }),
  (target, key) => Object.defineProperty(target, key, { get: () => 'x', enumerable: true }),
  (target) => Object.setPrototypeOf(target, { polluted: true }),
  (target, key) => Object.defineProperty(target, key, { value: target, enumerable: true }),
  (target) => (target[Symbol('hidden') as never] = 1),
  (target, key) => (target[key] = () => 1),
];

const codeArguments = fc
  .record({
    value: fc.dictionary(hostileKeys, codeValue, { maxKeys: 3 }),
    tamper: fc.option(fc.nat({ max: tamperings.length - 1 })),
    key: hostileKeys,
    nested: fc.boolean(),
  })
  .map(({ value, tamper, key, nested }) => {
    const target = { ...value };
    tamperings[tamper ?? -1]?.(target, key);
    return nested ? { outer: [{ inner: target }] } : target;
  });

/** Fails unless `value` is what JSON text could have held, with no prototype-reaching key. */
function expectPlainData(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    expect(Number.isFinite(value)).toBe(true);
    return;
  }
  expect(typeof value).toBe('object');
  const prototype = Object.getPrototypeOf(value);
  expect(prototype === Object.prototype || prototype === Array.prototype).toBe(true);
  for (const key of Reflect.ownKeys(value as object)) {
    if (Array.isArray(value) && key === 'length') continue;
    expect(typeof key).toBe('string');
    expect(['__proto__', 'constructor', 'prototype']).not.toContain(key);
    const descriptor = Reflect.getOwnPropertyDescriptor(value as object, key);
    expect(descriptor?.enumerable === true && 'value' in descriptor).toBe(true);
    expectPlainData(descriptor?.value, `${path}.${String(key)}`);
  }
}
