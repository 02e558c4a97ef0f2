import { ToolError } from './tool-error.js';

/**
 * Anything else: most likely a bug in the tool.
 *
 * @publicApi
 */
export class InternalToolError extends ToolError {
  readonly type = 'internal' as const;
}
