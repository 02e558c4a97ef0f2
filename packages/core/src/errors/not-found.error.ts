import { ToolError } from './tool-error.js';

/**
 * What the tool was asked for does not exist (HTTP 404, `ENOENT`).
 *
 * @publicApi
 */
export class NotFoundError extends ToolError {
  readonly type = 'not_found' as const;
}
