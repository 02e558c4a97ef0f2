import { ToolError } from './tool-error.js';

/**
 * A dependency of the tool is down or overloaded (HTTP 5xx).
 *
 * @publicApi
 */
export class UpstreamUnavailableError extends ToolError {
  readonly type = 'upstream_unavailable' as const;
}
