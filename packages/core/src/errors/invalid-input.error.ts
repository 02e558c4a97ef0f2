import { ToolError, type ToolErrorOptions, type ValidationIssue } from './tool-error.js';

/** @publicApi */
export interface InvalidInputErrorOptions extends ToolErrorOptions {
  /** Field-level problems, when the arguments were parsed but failed validation. */
  readonly issues?: readonly ValidationIssue[];
}

/**
 * The arguments could not be parsed or failed validation. Never retried: the same
 * arguments fail the same way.
 *
 * @publicApi
 */
export class InvalidInputError extends ToolError {
  readonly type = 'invalid_input' as const;
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, options: InvalidInputErrorOptions = {}) {
    super(message, options);
    this.issues = options.issues ?? [];
  }
}
