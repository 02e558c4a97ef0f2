import { ToolError } from './tool-error.js';

/**
 * The circuit breaker is open and the call failed fast; `retryAfterMs` is the time until it half-opens.
 *
 * @publicApi
 */
export class CircuitOpenError extends ToolError {
  readonly type = 'circuit_open' as const;
}
