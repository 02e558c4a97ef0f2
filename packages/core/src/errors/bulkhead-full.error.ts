import { ToolError } from './tool-error.js';

/**
 * The tool is already running as many calls as it may, and its queue is full.
 *
 * @publicApi
 */
export class BulkheadFullError extends ToolError {
  readonly type = 'bulkhead_full' as const;
}
