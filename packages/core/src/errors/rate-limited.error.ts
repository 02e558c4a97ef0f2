import { ToolError } from './tool-error.js';

/**
 * The tool or its upstream refused the call for now; `retryAfterMs` says when to try again.
 *
 * @publicApi
 */
export class RateLimitedError extends ToolError {
  readonly type = 'rate_limited' as const;
}
