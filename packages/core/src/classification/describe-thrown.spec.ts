import { describe, expect, it } from '@jest/globals';
import { describeThrown } from './describe-thrown.js';

describe('describeThrown', () => {
  it('uses the message of errors and error-like objects', () => {
    expect(describeThrown(new Error('boom'))).toBe('boom');
    expect(describeThrown(new RangeError(''))).toBe('RangeError');
    expect(describeThrown({ message: 'plain' })).toBe('plain');
  });

  it.each([
    ['disk full', 'disk full'],
    ['  ', 'An empty string was thrown.'],
    [42, 'Non-error value thrown: 42'],
    [10n, 'Non-error value thrown: 10'],
    [false, 'Non-error value thrown: false'],
    [undefined, 'Non-error value thrown: undefined'],
    [null, 'Non-error value thrown: null'],
    [Symbol('oops'), 'Non-error value thrown: Symbol(oops)'],
    [
      function named(): number {
        return 1;
      },
      'Non-error value thrown: function named',
    ],
    [{ reason: 'x' }, 'Non-error object thrown: {"reason":"x"}'],
  ])('describes %p', (value, expected) => {
    expect(describeThrown(value)).toBe(expected);
  });

  it('survives circular objects, throwing getters and revoked proxies', () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(describeThrown(circular)).toBe('Non-error object thrown: [object Object]');

    const hostile = {
      get message(): never {
        throw new Error('getter');
      },
      toJSON(): never {
        throw new Error('json');
      },
    };
    expect(describeThrown(hostile)).toBe('Non-error object thrown: [object Object]');

    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(typeof describeThrown(proxy)).toBe('string');
  });

  it('shortens large objects, generously (the sentence is cut after redaction)', () => {
    expect(describeThrown({ data: 'x'.repeat(5000) })).toHaveLength(
      'Non-error object thrown: '.length + 4097,
    );
  });

  it('leaves a stack out, and describes a thrown { stack } by its first line', () => {
    const stack = 'Error: boom\n    at run (/app/x.js:1:2)';
    expect(describeThrown({ code: 'E1', error: { stack } })).toBe(
      'Non-error object thrown: {"code":"E1","error":{}}',
    );
    expect(describeThrown({ stack })).toBe('Error: boom');
  });
});
