import { ToolError } from './tool-error.js';

/**
 * The tool returned something that cannot be delivered (unserialisable, or failing its output schema).
 *
 * @publicApi
 */
export class InvalidOutputError extends ToolError {
  readonly type = 'invalid_output' as const;
}
