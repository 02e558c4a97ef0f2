import { ToolError } from './tool-error.js';

/**
 * The caller aborted the call.
 *
 * @publicApi
 */
export class CancelledError extends ToolError {
  readonly type = 'cancelled' as const;
}
