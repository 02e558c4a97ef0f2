import { describe, expect, it } from '@jest/globals';
import { createToolFailure } from '../results/create-tool-failure.js';
import { classifyError } from './classify-error.js';

const CHAOS_MARKER = Symbol.for('toolshield.chaos.injected');

/** An error marked the way `@toolshield/chaos` marks what it injects. */
function injected(error: Error, fault: string, rule: string): Error {
  Object.defineProperty(error, CHAOS_MARKER, { value: { fault, rule }, enumerable: false });
  return Object.assign(error, { metadata: { chaos: true, chaosFault: fault, chaosRule: rule } });
}

describe('chaos facts in classification', () => {
  it('copies chaos, chaosFault and chaosRule of an injected error into the metadata', () => {
    const error = injected(
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      'network:ECONNRESET',
      'flaky',
    );
    const classified = classifyError(error);
    expect(classified.type).toBe('network');
    expect(classified.metadata).toEqual({
      code: 'ECONNRESET',
      chaos: true,
      chaosFault: 'network:ECONNRESET',
      chaosRule: 'flaky',
    });
    expect(
      createToolFailure(classified, {
        tool: 'search',
        callId: 'c1',
        durationMs: 0,
      }).metadata,
    ).toMatchObject({ chaos: true, chaosFault: 'network:ECONNRESET', chaosRule: 'flaky' });
  });

  it('finds the mark down the cause chain, and on objects marked by the symbol only', () => {
    const inner = injected(new Error('boom'), 'http:503', 'down');
    expect(classifyError(new Error('wrapped', { cause: inner })).metadata).toMatchObject({
      chaos: true,
      chaosFault: 'http:503',
    });
    const thrown = {};
    Object.defineProperty(thrown, CHAOS_MARKER, { value: { fault: 'thrown:object' } });
    expect(classifyError(thrown)).toMatchObject({
      type: 'internal',
      metadata: { chaos: true, chaosFault: 'thrown:object' },
    });
  });

  it('marks rule-classified errors, and leaves real errors unmarked', () => {
    const error = injected(new Error('quota'), 'custom', 'r');
    expect(classifyError(error, { rules: [() => 'limit_exceeded'] }).metadata).toEqual({
      chaos: true,
      chaosFault: 'custom',
      chaosRule: 'r',
    });
    expect(classifyError(new Error('real')).metadata).toEqual({});
  });
});
