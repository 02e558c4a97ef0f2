import { ToolError, type ToolErrorOptions } from './tool-error.js';

/** @publicApi */
export interface ToolNotFoundErrorOptions extends ToolErrorOptions {
  /** The names that do exist. */
  readonly availableTools?: readonly string[];
  /** The closest existing names, best first. */
  readonly didYouMean?: readonly string[];
}

/**
 * The model asked for a tool that is not registered. Nothing was called.
 *
 * @publicApi
 */
export class ToolNotFoundError extends ToolError {
  readonly type = 'tool_not_found' as const;
  readonly availableTools: readonly string[];
  readonly didYouMean: readonly string[];

  constructor(message: string, options: ToolNotFoundErrorOptions = {}) {
    super(message, options);
    this.availableTools = options.availableTools ?? [];
    this.didYouMean = options.didYouMean ?? [];
  }
}
