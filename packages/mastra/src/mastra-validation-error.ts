import type { ValidationError } from '@mastra/core/tools';
import {
  InvalidInputError,
  InvalidOutputError,
  type InvalidInputErrorOptions,
} from '@toolshield/core';

type ValidationIssue = NonNullable<InvalidInputErrorOptions['issues']>[number];
/** Mastra's tree of messages: `errors` at this level, `fields` below it. */
interface FormattedValidationErrors {
  readonly errors: readonly string[];
  readonly fields?: unknown;
}

/**
 * What a Mastra tool's own validation returned (Mastra returns a `ValidationError` object
 * instead of throwing), as the toolshield error it means: the input failing the tool's
 * `inputSchema` is `invalid_input` with the fields listed (never retried), anything else
 * (its output, suspend data, request context) `invalid_output`.
 *
 * @internal
 */
export function fromMastraValidationError(
  validation: ValidationError,
  input: 'input' | 'output',
): InvalidInputError | InvalidOutputError {
  const issues = issuesOf(validation.validationErrors, '');
  return input === 'input'
    ? new InvalidInputError('Arguments failed validation.', { issues })
    : new InvalidOutputError(validation.message, { metadata: { issues } });
}

function issuesOf(errors: FormattedValidationErrors | undefined, path: string): ValidationIssue[] {
  if (errors === undefined) return [];
  const here = errors.errors.map((message) => ({ path, message }));
  const fields = (errors.fields ?? {}) as Record<string, FormattedValidationErrors | undefined>;
  return [
    ...here,
    ...Object.entries(fields).flatMap(([name, nested]) =>
      issuesOf(nested, path === '' ? name : `${path}.${name}`),
    ),
  ];
}
