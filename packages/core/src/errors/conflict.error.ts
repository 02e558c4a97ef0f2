import { ToolError } from './tool-error.js';

/**
 * The action conflicts with the current state (HTTP 409).
 *
 * @publicApi
 */
export class ConflictError extends ToolError {
  readonly type = 'conflict' as const;
}
