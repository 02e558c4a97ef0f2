import { describe, expect, it } from '@jest/globals';
import { InvalidOutputError } from '@toolshield/core';
import { rejectionOf, runFault } from '../../test/run-fault.js';
import { chaosMarkOf, isChaosInjected } from '../marking/chaos-marker.js';
import { errorFault } from './error.fault.js';
import { malformedOutput } from './malformed-output.fault.js';
import { thrownValue } from './thrown-value.fault.js';

describe('thrownValue', () => {
  it.each([
    ['string', (value: unknown) => typeof value === 'string' && value.includes('chaos')],
    ['undefined', (value: unknown) => value === undefined],
    ['null', (value: unknown) => value === null],
  ] as const)('throws a bare %s', async (kind, check) => {
    const run = runFault(thrownValue(kind));
    expect(check(await rejectionOf(run.promise))).toBe(true);
    expect(run.toolCalls()).toBe(0);
  });

  it('throws a plain object whose only visible keys are its own, marked invisibly', async () => {
    const thrown = await rejectionOf(runFault(thrownValue('object')).promise);
    expect(thrown).not.toBeInstanceOf(Error);
    expect(Object.keys(thrown as object)).toEqual(['message', 'code']);
    expect(JSON.parse(JSON.stringify(thrown))).toEqual({
      message: expect.stringContaining('chaos'),
      code: 'CHAOS_THROWN_OBJECT',
    });
    expect(chaosMarkOf(thrown)).toEqual({ fault: 'thrown:object', rule: 'under-test' });
  });

  it('throws a circular object that JSON.stringify refuses', async () => {
    const thrown = (await rejectionOf(runFault(thrownValue('circular')).promise)) as {
      self: unknown;
    };
    expect(thrown.self).toBe(thrown);
    expect(() => JSON.stringify(thrown)).toThrow(TypeError);
    expect(isChaosInjected(thrown)).toBe(true);
  });
});

describe('malformedOutput', () => {
  const output = { city: 'Oslo', temperatureC: -3 };

  it('runs the tool, then truncates its JSON so it never parses (default)', async () => {
    const run = runFault(malformedOutput(), { output });
    const value = await run.promise;
    expect(run.toolCalls()).toBe(1);
    expect(typeof value).toBe('string');
    expect(JSON.stringify({ data: output }).startsWith(value as string)).toBe(true);
    expect(() => JSON.parse(value as string)).toThrow(SyntaxError);
  });

  it('returns a BigInt that serialisation refuses', async () => {
    const value = (await runFault(malformedOutput({ kind: 'bigint' }), { output }).promise) as {
      data: unknown;
      total: bigint;
    };
    expect(value.data).toBe(output);
    expect(typeof value.total).toBe('bigint');
    expect(() => JSON.stringify(value)).toThrow(TypeError);
    expect(isChaosInjected(value)).toBe(true);
  });

  it('returns a circular object', async () => {
    const value = (await runFault(malformedOutput({ kind: 'circular' }), { output }).promise) as {
      self: unknown;
    };
    expect(value.self).toBe(value);
    expect(() => JSON.stringify(value)).toThrow(TypeError);
  });

  it('returns an HTML page where data was expected, and can skip the tool', async () => {
    const run = runFault(malformedOutput({ kind: 'wrong-type', callThrough: false }), { output });
    expect(await run.promise).toMatch(/^<html>/);
    expect(run.toolCalls()).toBe(0);
  });
});

describe('errorFault', () => {
  it('rejects with whatever the factory makes, marked', async () => {
    const error = await rejectionOf(
      runFault(errorFault('bad-output', () => new InvalidOutputError('schema mismatch'))).promise,
    );
    expect(error).toBeInstanceOf(InvalidOutputError);
    expect((error as InvalidOutputError).metadata).toEqual({
      chaos: true,
      chaosFault: 'bad-output',
      chaosRule: 'under-test',
    });
  });
});
