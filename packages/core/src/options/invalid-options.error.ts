import type { OptionIssue } from './option-rule.js';

/**
 * Settings that cannot work, refused where they enter (module options, decorators,
 * constructors). Its message names every bad option, the value given and what is allowed:
 *
 * `Invalid ToolShieldModule options: defaults.retry.maxRetries must be an integer from 0 up, got NaN.`
 *
 * @publicApi
 */
export class InvalidOptionsError extends TypeError {
  override readonly name = 'InvalidOptionsError';

  constructor(
    /** What the options are for (`ToolShieldModule options`, `RetryOptions`). */
    readonly subject: string,
    /** Every problem found, in the order of the options. */
    readonly issues: readonly OptionIssue[],
  ) {
    super(`Invalid ${subject}: ${issues.map(formatOptionIssue).join('; ')}.`);
  }
}

/** `path must be <expected>, got <received>`. @publicApi */
export function formatOptionIssue(issue: OptionIssue): string {
  return `${issue.path === '' ? 'the options' : issue.path} must be ${issue.expected}, got ${issue.received}`;
}
