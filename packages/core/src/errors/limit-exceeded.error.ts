import { ToolError } from './tool-error.js';

/**
 * A size, token or quota limit was exceeded; repeating the same call will not help.
 *
 * @publicApi
 */
export class LimitExceededError extends ToolError {
  readonly type = 'limit_exceeded' as const;
}
