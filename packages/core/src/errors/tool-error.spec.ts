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
} from '../index.js';

describe('ToolError taxonomy', () => {
  it('is a closed set of fifteen types, each with traits', () => {
    expect(TOOL_ERROR_TYPES).toHaveLength(15);
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

    const open = new CircuitOpenError('open', { retryAfterMs: 5000 });
    expect(open.retryable).toBe(false);
    expect(open.recoverable).toBe(true);
    expect(open.retryAfterMs).toBe(5000);

    const invalid = new InvalidInputError('bad', { issues: [{ path: 'city', message: 'required' }] });
    expect(invalid.recoverable).toBe(false);
    expect(invalid.issues).toEqual([{ path: 'city', message: 'required' }]);
  });

  it('recognises tool errors and nothing else', () => {
    expect(isToolError(new NetworkError('x'))).toBe(true);
    expect(isToolError(new Error('x'))).toBe(false);
    expect(isToolError({ type: 'timeout', metadata: {} })).toBe(false);
    expect(isToolError(null)).toBe(false);
  });
});
