import { describe, expect, it } from '@jest/globals';
import { toolErrorTypeForHttpStatus } from './http-status.js';

describe('toolErrorTypeForHttpStatus', () => {
  it.each([
    [400, 'invalid_input'],
    [422, 'invalid_input'],
    [401, 'permission_denied'],
    [403, 'permission_denied'],
    [404, 'not_found'],
    [409, 'conflict'],
    [408, 'timeout'],
    [413, 'limit_exceeded'],
    [429, 'rate_limited'],
    [500, 'upstream_unavailable'],
    [502, 'upstream_unavailable'],
    [503, 'upstream_unavailable'],
    [504, 'upstream_unavailable'],
    [418, 'invalid_input'],
    [507, 'upstream_unavailable'],
  ])('maps %i to %s', (status, type) => {
    expect(toolErrorTypeForHttpStatus(status)).toBe(type);
  });

  it.each([200, 302, 399, 600, 429.5, -1])('ignores %d', (status) => {
    expect(toolErrorTypeForHttpStatus(status)).toBeUndefined();
  });
});
