import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { TOOL_ERROR_TYPES } from '../errors/tool-error-type.js';
import { ToolError } from '../errors/tool-error.js';
import { classifyError } from './classify-error.js';

/** Objects that refer back to themselves, directly or through a cause. */
const circular = fc.tuple(fc.anything(), fc.boolean()).map(([payload, asError]) => {
  const node: Record<string, unknown> = { payload };
  node['self'] = node;
  const error = new Error('loop', { cause: node });
  node['cause'] = error;
  return asError ? error : node;
});

/** Errors carrying arbitrary status, code, name and headers. */
const errorLike = fc.record(
  {
    message: fc.anything(),
    name: fc.oneof(
      fc.string(),
      fc.constantFrom('AbortError', 'TimeoutError', 'SyntaxError', 'TypeError'),
    ),
    code: fc.oneof(
      fc.string(),
      fc.constantFrom('ECONNRESET', 'ETIMEDOUT', 'EOPENBREAKER', 'ENOENT'),
    ),
    status: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double()),
    response: fc.record({ status: fc.anything(), headers: fc.anything() }, { requiredKeys: [] }),
    cause: fc.anything(),
  },
  { requiredKeys: [] },
);

function expectClosedTaxonomy(value: unknown): void {
  const classified = classifyError(value);
  expect(classified).toBeInstanceOf(ToolError);
  expect(TOOL_ERROR_TYPES).toContain(classified.type);
  expect(typeof classified.message).toBe('string');
  expect(classified.message.length).toBeGreaterThan(0);
  expect(classified.message.length).toBeLessThanOrEqual(8192);
}

describe('classifyError (properties)', () => {
  it('maps anything thrown to the closed taxonomy without throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ withBigInt: true, withMap: true, withSet: true }),
          circular,
          errorLike,
        ),
        (value) => {
          expectClosedTaxonomy(value);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('maps Errors wrapping anything to the closed taxonomy', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), (message, cause) => {
        expectClosedTaxonomy(new Error(message, { cause }));
      }),
      { numRuns: 1000 },
    );
  });
});
