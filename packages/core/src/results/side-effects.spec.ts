import { describe, expect, it } from '@jest/globals';
import { hasSideEffects } from '../internal.js';

describe('hasSideEffects', () => {
  it.each([
    [{}, true],
    [{ annotations: { destructiveHint: true, idempotentHint: false } }, true],
    [{ annotations: { destructiveHint: false } }, true],
    [{ idempotent: false, annotations: { idempotentHint: true } }, true],
    [{ idempotent: true }, false],
    [{ annotations: { idempotentHint: true } }, false],
    [{ annotations: { destructiveHint: true, idempotentHint: true } }, false],
    [{ annotations: { readOnlyHint: true } }, false],
    [{ idempotent: false, annotations: { readOnlyHint: true } }, false],
  ])('%j: %s', (tool, expected) => {
    expect(hasSideEffects(tool)).toBe(expected);
  });
});
