import { ToolError } from './tool-error.js';

/**
 * The caller may not do this (a guard said no, HTTP 401/403, `EACCES`).
 *
 * @publicApi
 */
export class PermissionDeniedError extends ToolError {
  readonly type = 'permission_denied' as const;
}
