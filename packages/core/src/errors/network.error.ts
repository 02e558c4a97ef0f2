import { ToolError } from './tool-error.js';

/**
 * The connection to an upstream failed (reset, refused, DNS, `fetch failed`).
 *
 * @publicApi
 */
export class NetworkError extends ToolError {
  readonly type = 'network' as const;
}
