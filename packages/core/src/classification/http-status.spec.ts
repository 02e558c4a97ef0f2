import { describe, expect, it } from '@jest/globals';
import { HTTP_STATUS_CASES } from './http-status-cases.test.js';
import { toolErrorTypeForHttpStatus } from './http-status.js';

describe('toolErrorTypeForHttpStatus', () => {
  it.each([...HTTP_STATUS_CASES, [418, 'invalid_input'], [507, 'upstream_unavailable']])(
    'maps %i to %s',
    (status, type) => {
      expect(toolErrorTypeForHttpStatus(status)).toBe(type);
    },
  );

  it.each([200, 302, 399, 600, 429.5, -1])('ignores %d', (status) => {
    expect(toolErrorTypeForHttpStatus(status)).toBeUndefined();
  });
});
