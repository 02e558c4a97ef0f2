import { InvalidInputError } from '../errors/invalid-input.error.js';
import type { ValidationIssue } from '../errors/tool-error.js';

/** The error for arguments refused at `issue.path`: `Arguments rejected: <why> at '<path>'.` */
export function rejectedArguments(issue: ValidationIssue): InvalidInputError {
  return new InvalidInputError(`Arguments rejected: ${issue.message} at '${issue.path}'.`, {
    captureStack: false,
    issues: [issue],
  });
}
