import type { ToolErrorType } from '../errors/tool-error-type.js';

/** The HTTP statuses the classifier knows, with the type each maps to (shared by specs). */
export const HTTP_STATUS_CASES: readonly (readonly [number, ToolErrorType])[] = [
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
];
