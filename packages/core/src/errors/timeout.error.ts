import { ToolError } from './tool-error.js';

/**
 * The tool did not finish within its time limit (the attempt was aborted).
 *
 * @publicApi
 */
export class ToolTimeoutError extends ToolError {
  readonly type = 'timeout' as const;
}
