import { describe, expect, it } from '@jest/globals';
import {
  CircuitOpenError,
  InvalidInputError,
  NetworkError,
  TOOL_ERROR_TYPES,
  TOOL_ERROR_TYPE_TRAITS,
  ToolError,
  isToolError,
  isToolErrorType,
} from '../internal.js';

describe('ToolError taxonomy', () => {
  it('is a closed set of fifteen types, each with traits', () => {
    expect(TOOL_ERROR_TYPES).toHaveLength(18);
    for (const type of TOOL_ERROR_TYPES) expect(TOOL_ERROR_TYPE_TRAITS[type]).toBeDefined();
    expect(isToolErrorType('timeout')).toBe(true);
    expect(isToolErrorType('__proto__')).toBe(false);
    expect(isToolErrorType('toString')).toBe(false);
  });

  it('derives retryable and recoverable from the type unless overridden', () => {
    const network = new NetworkError('socket hang up', { metadata: { code: 'ECONNRESET' } });
    expect(network).toBeInstanceOf(ToolError);
    expect(network.name).toBe('NetworkError');
    expect(network.retryable).toBe(true);
    expect(new NetworkError('x', { retryable: false }).retryable).toBe(false);
    // A type that recovers by being retried, told it may not be: calling again will not help.
    expect(new NetworkError('x', { retryable: false }).recoverable).toBe(false);

    const open = new CircuitOpenError('open', { retryAfterMs: 5000 });
    expect(open.retryable).toBe(false);
    expect(open.recoverable).toBe(true);
    expect(open.retryAfterMs).toBe(5000);

    const invalid = new InvalidInputError('bad', {
      issues: [{ path: 'city', message: 'required' }],
    });
    // Recovered by a corrected call: calling again with fixed arguments can succeed.
    expect(invalid.recoverable).toBe(true);
    expect(invalid.issues).toEqual([{ path: 'city', message: 'required' }]);
  });

  it('says what it sets about calling again, and the next steps it gives', () => {
    const sent = new NetworkError('The payment was sent; the reply was lost.', {
      recoverable: false,
      suggestions: ['Look the payment up with get_payment.'],
    });
    expect(sent).toMatchObject({ retryable: true, recoverable: false, declaredRecoverable: false });
    expect(sent.suggestions).toEqual(['Look the payment up with get_payment.']);
    expect(new CircuitOpenError('open', { recoverable: false }).recoverable).toBe(false);
    expect(new InvalidInputError('bad').declaredRecoverable).toBeUndefined();
  });

  it('recognises tool errors and nothing else', () => {
    expect(isToolError(new NetworkError('x'))).toBe(true);
    expect(isToolError(new Error('x'))).toBe(false);
    expect(isToolError({ type: 'timeout', metadata: {} })).toBe(false);
    expect(isToolError(null)).toBe(false);
  });

  it('builds an error without a stack trace when asked, and leaves the stack depth as it was', () => {
    const limit = Error.stackTraceLimit;
    const fast = new CircuitOpenError('open', { captureStack: false, cause: new Error('inner') });
    expect(fast.stack).toBe('CircuitOpenError: open');
    expect(fast.cause).toBeInstanceOf(Error);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new CircuitOpenError('open').stack).toMatch(/\n\s+at /);
  });
});
